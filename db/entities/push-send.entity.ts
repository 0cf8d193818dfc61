import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { PushApp } from './push-app.entity';

/** One send (a direct send now, a campaign send later): the message, once; its devices are push_notifications rows. */
@Entity({ name: 'push_sends' })
@Check('push_sends_status_check', `status IN ('queued','sending','done')`)
@Index('push_sends_app', ['appId', 'createdAt'])
@Index('push_sends_campaign', ['campaignId'], { unique: true })
export class PushSend {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'push_sends_pkey' })
  id!: string;

  @Column({ name: 'app_id', type: 'uuid' })
  appId!: string;

  @ManyToOne(() => PushApp, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'app_id', foreignKeyConstraintName: 'push_sends_app_id_fkey' })
  app?: Relation<PushApp>;

  /** set for campaign sends: at most one send per campaign (its audience snapshot) */
  @Column({ name: 'campaign_id', type: 'uuid', nullable: true })
  campaignId!: string | null;

  @Column({ type: 'text' })
  title!: string;

  @Column({ type: 'text' })
  body!: string;

  @Column({ name: 'deep_link', type: 'text', nullable: true })
  deepLink!: string | null;

  @Column({ name: 'image_url', type: 'text', nullable: true })
  imageUrl!: string | null;

  @Column({ name: 'custom_data', type: 'jsonb', default: () => "'{}'" })
  customData!: Record<string, unknown>;

  @Column({ type: 'text', default: 'queued' })
  status!: 'queued' | 'sending' | 'done';

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt!: Date | null;
}

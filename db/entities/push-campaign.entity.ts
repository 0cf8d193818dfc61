import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { PushApp } from './push-app.entity';

/**
 * A campaign: one message to an audience of an app (a segment, or every active device),
 * sent now or at `scheduled_at` by its workflow `campaign/<id>`. The API creates it as a
 * Draft and moves it to Queued/Scheduled (with the workflow's outbox entry); from then on
 * the workflow writes its status. `send_id` is its audience snapshot (push_sends).
 */
@Entity({ name: 'push_campaigns' })
@Check('push_campaigns_target_type_check', `target_type IN ('Segment','All')`)
@Check('push_campaigns_status_check', `status IN ('Draft','Queued','Scheduled','Sending','Completed','Cancelled','Failed')`)
@Check('push_campaigns_segment_check', `(target_type = 'Segment') = (segment_id IS NOT NULL)`)
@Index('push_campaigns_app', ['appId', 'createdAt'])
export class PushCampaign {
  @PrimaryColumn({ type: 'uuid', primaryKeyConstraintName: 'push_campaigns_pkey' })
  id!: string;

  @Column({ name: 'app_id', type: 'uuid' })
  appId!: string;

  @ManyToOne(() => PushApp, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'app_id', foreignKeyConstraintName: 'push_campaigns_app_id_fkey' })
  app?: Relation<PushApp>;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  title!: string;

  @Column({ type: 'text' })
  body!: string;

  @Column({ name: 'image_url', type: 'text', nullable: true })
  imageUrl!: string | null;

  @Column({ name: 'deep_link', type: 'text', nullable: true })
  deepLink!: string | null;

  @Column({ name: 'custom_data', type: 'jsonb', default: () => "'{}'" })
  customData!: Record<string, unknown>;

  @Column({ name: 'target_type', type: 'text' })
  targetType!: 'Segment' | 'All';

  @Column({ name: 'segment_id', type: 'uuid', nullable: true })
  segmentId!: string | null;

  @Column({ type: 'text', default: 'Draft' })
  status!: 'Draft' | 'Queued' | 'Scheduled' | 'Sending' | 'Completed' | 'Cancelled' | 'Failed';

  @Column({ name: 'scheduled_at', type: 'timestamptz', nullable: true })
  scheduledAt!: Date | null;

  /** the audience snapshot's push_sends row, once sending started */
  @Column({ name: 'send_id', type: 'uuid', nullable: true })
  sendId!: string | null;

  /** devices in the snapshot, once sending started */
  @Column({ type: 'integer', nullable: true })
  recipients!: number | null;

  @Column({ name: 'failure_reason', type: 'text', nullable: true })
  failureReason!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;

  @Column({ name: 'started_at', type: 'timestamptz', nullable: true })
  startedAt!: Date | null;

  @Column({ name: 'finished_at', type: 'timestamptz', nullable: true })
  finishedAt!: Date | null;
}

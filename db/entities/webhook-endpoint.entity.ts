import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import type { WebhookApiName } from '../../domain/webhooks/api-names';
import { Workspace } from './workspace.entity';

/** A registered webhook receiver; soft-deleted so its delivery log keeps its foreign key. */
@Entity({ name: 'webhook_endpoints' })
@Index('webhook_endpoints_ws', ['workspaceId'], { where: 'deleted_at IS NULL' })
export class WebhookEndpoint {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'webhook_endpoints_pkey' })
  id!: string;

  @Column({ name: 'workspace_id', type: 'text' })
  workspaceId!: string;

  @ManyToOne(() => Workspace, { nullable: false })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'webhook_endpoints_workspace_id_fkey' })
  workspace?: Relation<Workspace>;

  @Column({ type: 'text' })
  url!: string;

  @Column({ type: 'text', array: true })
  events!: string[];

  @Column({ type: 'text', default: '' })
  description!: string;

  @Column({ type: 'boolean', default: true })
  active!: boolean;

  /** the signing secret, AES-256-GCM bound to the endpoint id; only the delivery opens it */
  @Column({ name: 'secret_box', type: 'text' })
  secretBox!: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;

  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt!: Date | null;

  /** since when it is paused; null while active */
  @Column({ name: 'paused_at', type: 'timestamptz', nullable: true })
  pausedAt!: Date | null;

  /** the webhook API it belongs to (domain/webhooks/apis.ts): its schedule, envelope and signatures */
  @Column({ type: 'text', default: 'ticketing' })
  api!: WebhookApiName;

  /** why: 'manual' (active=false by hand) or 'delivery_failed' (a schedule's pause-endpoint step) */
  @Column({ name: 'paused_reason', type: 'text', nullable: true })
  pausedReason!: string | null;
}

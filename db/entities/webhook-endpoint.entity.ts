import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import type { WebhookApiName } from '../../domain/webhooks/api-names';
import { PlatformWorkspace } from './platform-workspace.entity';
import { Workspace } from './workspace.entity';

/**
 * workspace_id of the API's own rows, null on the other API's (migration
 * PlatformWebhookEndpoints): each generated column carries that API's foreign key.
 * TypeORM compares the expressions with its typeorm_metadata copy.
 */
export const ENDPOINT_WORKSPACE_OF = {
  ticketing: "CASE WHEN api = 'ticketing' THEN workspace_id END",
  platform: "CASE WHEN api = 'platform' THEN workspace_id END",
} as const;

/** A registered webhook receiver; soft-deleted so its delivery log keeps its foreign key. */
@Entity({ name: 'webhook_endpoints' })
@Check('webhook_endpoints_api_check', `api IN ('ticketing', 'platform')`)
@Check('webhook_endpoints_environment_check', `environment IN ('live', 'test')`)
@Index('webhook_endpoints_ws', ['workspaceId'], { where: 'deleted_at IS NULL' })
export class WebhookEndpoint {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'webhook_endpoints_pkey' })
  id!: string;

  /** a ticketing workspace or a platform workspace, by `api` */
  @Column({ name: 'workspace_id', type: 'text' })
  workspaceId!: string;

  @Column({ name: 'ticketing_workspace_id', type: 'text', generatedType: 'STORED', asExpression: ENDPOINT_WORKSPACE_OF.ticketing, insert: false, update: false, select: false, nullable: true })
  ticketingWorkspaceId?: string | null;

  @ManyToOne(() => Workspace)
  @JoinColumn({ name: 'ticketing_workspace_id', foreignKeyConstraintName: 'webhook_endpoints_ticketing_workspace_id_fkey' })
  workspace?: Relation<Workspace>;

  @Column({ name: 'platform_workspace_id', type: 'text', generatedType: 'STORED', asExpression: ENDPOINT_WORKSPACE_OF.platform, insert: false, update: false, select: false, nullable: true })
  platformWorkspaceId?: string | null;

  @ManyToOne(() => PlatformWorkspace)
  @JoinColumn({ name: 'platform_workspace_id', foreignKeyConstraintName: 'webhook_endpoints_platform_workspace_id_fkey' })
  platformWorkspace?: Relation<PlatformWorkspace>;

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

  /** the secret the last rotation replaced, sealed like secretBox; signed beside the new one until previousSecretExpiresAt */
  @Column({ name: 'previous_secret_box', type: 'text', nullable: true })
  previousSecretBox!: string | null;

  /** the end of the rotation's 24 h during which deliveries carry both signatures */
  @Column({ name: 'previous_secret_expires_at', type: 'timestamptz', nullable: true })
  previousSecretExpiresAt!: Date | null;

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

  /** a platform endpoint's environment (its events only: 'live' or 'test'); null for the ticketing API's */
  @Column({ type: 'text', nullable: true })
  environment!: 'live' | 'test' | null;

  /**
   * test mode (ticketing endpoints; docs/webhooks.md, "Test mode"): real events are withheld,
   * only the test sender's synthetic ones are sent. Always false for the platform's.
   */
  @Column({ name: 'test_mode', type: 'boolean', default: false })
  testMode!: boolean;

  /** why: 'manual' (active=false by hand) or 'delivery_failed' (a schedule's pause-endpoint step) */
  @Column({ name: 'paused_reason', type: 'text', nullable: true })
  pausedReason!: string | null;
}

import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { PlatformChannel } from './platform-channel.entity';
import { PlatformOrganization } from './platform-organization.entity';
import { PlatformUser } from './platform-user.entity';
import { PlatformWorkspace } from './platform-workspace.entity';

/** A platform API ticket of one workspace and environment (live or test), written by its workflow. */
@Entity({ name: 'platform_tickets' })
@Check('platform_tickets_environment_check', `environment IN ('live','test')`)
@Check('platform_tickets_priority_check', `priority IN ('critical','high','normal','low')`)
@Check('platform_tickets_status_check', `status IN ('open','pending','resolved','closed')`)
@Index('platform_tickets_live', { synchronize: false }) // (workspace_id, environment, created_at DESC, id DESC) WHERE deleted_at IS NULL: the list and its total
@Index('platform_tickets_assignee', ['assigneeId'])
@Index('platform_tickets_status', { synchronize: false }) // (workspace_id, environment, status, created_at DESC, id DESC): ?status=
@Index('platform_tickets_tags', { synchronize: false }) // USING gin (tags): ?tag=
export class PlatformTicket {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'platform_tickets_pkey' })
  id!: string;

  @Column({ name: 'organization_id', type: 'text' })
  organizationId!: string;

  @ManyToOne(() => PlatformOrganization, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'platform_tickets_organization_id_fkey' })
  organization?: Relation<PlatformOrganization>;

  @Column({ name: 'workspace_id', type: 'text' })
  workspaceId!: string;

  @ManyToOne(() => PlatformWorkspace, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'platform_tickets_workspace_id_fkey' })
  workspace?: Relation<PlatformWorkspace>;

  @Column({ type: 'text' })
  environment!: 'live' | 'test';

  @Column({ name: 'channel_id', type: 'text' })
  channelId!: string;

  @ManyToOne(() => PlatformChannel, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'channel_id', foreignKeyConstraintName: 'platform_tickets_channel_id_fkey' })
  channel?: Relation<PlatformChannel>;

  @Column({ type: 'text' })
  subject!: string;

  @Column({ type: 'text', default: '' })
  body!: string;

  @Column({ name: 'contact_email', type: 'text' })
  contactEmail!: string;

  @Column({ type: 'text' })
  priority!: 'critical' | 'high' | 'normal' | 'low';

  @Column({ type: 'text', default: 'open' })
  status!: 'open' | 'pending' | 'resolved' | 'closed';

  @Column({ name: 'assignee_id', type: 'text', nullable: true })
  assigneeId!: string | null;

  @ManyToOne(() => PlatformUser)
  @JoinColumn({ name: 'assignee_id', foreignKeyConstraintName: 'platform_tickets_assignee_id_fkey' })
  assignee?: Relation<PlatformUser> | null;

  @Column({ type: 'text', array: true, default: () => "'{}'" })
  tags!: string[];

  @Column({ name: 'created_by', type: 'text', nullable: true })
  createdBy!: string | null;

  @ManyToOne(() => PlatformUser)
  @JoinColumn({ name: 'created_by', foreignKeyConstraintName: 'platform_tickets_created_by_fkey' })
  creator?: Relation<PlatformUser> | null;

  /** the step number of the ticket workflow's last change */
  @Column({ type: 'integer', default: 1 })
  version!: number;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;

  @Column({ name: 'resolved_at', type: 'timestamptz', nullable: true })
  resolvedAt!: Date | null;

  /** when its first reply was published (the first response, for SLA and analytics) */
  @Column({ name: 'first_response_at', type: 'timestamptz', nullable: true })
  firstResponseAt!: Date | null;

  /** when the first-response SLA policy was breached; at most once per ticket */
  @Column({ name: 'first_response_breached_at', type: 'timestamptz', nullable: true })
  firstResponseBreachedAt!: Date | null;

  /** when the resolution SLA policy was breached; at most once per ticket */
  @Column({ name: 'resolution_breached_at', type: 'timestamptz', nullable: true })
  resolutionBreachedAt!: Date | null;

  @Column({ name: 'closed_at', type: 'timestamptz', nullable: true })
  closedAt!: Date | null;

  /** soft delete: hidden from reads, restorable until purge_at (30 days) */
  @Column({ name: 'deleted_at', type: 'timestamptz', nullable: true })
  deletedAt!: Date | null;

  @Column({ name: 'purge_at', type: 'timestamptz', nullable: true })
  purgeAt!: Date | null;
}

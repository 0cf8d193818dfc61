import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { PlatformOrganization } from './platform-organization.entity';

/** An organisation's workspace on the platform API; its removal cascades to everything in it. */
@Entity({ name: 'platform_workspaces' })
@Check('platform_workspaces_status_check', `status IN ('active','pending_deletion')`)
@Index('platform_workspaces_org', ['organizationId', 'createdAt', 'id'])
export class PlatformWorkspace {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'platform_workspaces_pkey' })
  id!: string;

  @Column({ name: 'organization_id', type: 'text' })
  organizationId!: string;

  @ManyToOne(() => PlatformOrganization, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'platform_workspaces_organization_id_fkey' })
  organization?: Relation<PlatformOrganization>;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text', default: 'UTC' })
  timezone!: string;

  @Column({ name: 'default_language', type: 'text', default: 'en' })
  defaultLanguage!: string;

  @Column({ type: 'jsonb' })
  plan!: Record<string, unknown>;

  /** the workspace's SLA policies, one per priority; null: the documented defaults */
  @Column({ name: 'sla_policies', type: 'jsonb', nullable: true })
  slaPolicies!: { priority: string; firstResponseMinutes: number; resolutionMinutes: number }[] | null;

  @Column({ type: 'text', default: 'active' })
  status!: 'active' | 'pending_deletion';

  @Column({ name: 'deletion_requested_at', type: 'timestamptz', nullable: true })
  deletionRequestedAt!: Date | null;

  /** end of the 30-day grace after a deletion request */
  @Column({ name: 'purge_at', type: 'timestamptz', nullable: true })
  purgeAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}

import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique, type Relation } from 'typeorm';
import { PlatformOrganization } from './platform-organization.entity';
import { PlatformUser } from './platform-user.entity';
import { PlatformWorkspace } from './platform-workspace.entity';

/** A platform API token (`service_live_…`, `service_test_…`) of one workspace and its creator: only the SHA-256 of the secret is kept. */
@Entity({ name: 'platform_tokens' })
@Check('platform_tokens_environment_check', `environment IN ('live','test')`)
@Unique('platform_tokens_secret_hash_key', ['secretHash'])
@Index('platform_tokens_org', ['organizationId', 'createdAt', 'id'])
@Index('platform_tokens_user', ['userId'])
export class PlatformToken {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'platform_tokens_pkey' })
  id!: string;

  @Column({ name: 'organization_id', type: 'text' })
  organizationId!: string;

  @ManyToOne(() => PlatformOrganization, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'platform_tokens_organization_id_fkey' })
  organization?: Relation<PlatformOrganization>;

  @Column({ name: 'workspace_id', type: 'text' })
  workspaceId!: string;

  @ManyToOne(() => PlatformWorkspace, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'platform_tokens_workspace_id_fkey' })
  workspace?: Relation<PlatformWorkspace>;

  @Column({ name: 'user_id', type: 'text' })
  userId!: string;

  @ManyToOne(() => PlatformUser, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'platform_tokens_user_id_fkey' })
  user?: Relation<PlatformUser>;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  environment!: 'live' | 'test';

  /** the token's leading characters, shown in lists */
  @Column({ type: 'text' })
  prefix!: string;

  @Column({ name: 'secret_hash', type: 'text' })
  secretHash!: string;

  @Column({ name: 'expires_at', type: 'timestamptz', nullable: true })
  expiresAt!: Date | null;

  /** set by the token's expiry timer (the request path compares expires_at itself) */
  @Column({ name: 'expired_at', type: 'timestamptz', nullable: true })
  expiredAt!: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}

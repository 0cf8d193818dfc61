import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, Unique, type Relation } from 'typeorm';
import { Organization } from './organization.entity';
import { Workspace } from './workspace.entity';

/**
 * An API key: only the SHA-256 of the whole key is stored (looked up by hash). A revoked
 * row is the audit record until the maintenance purge, 365 days after revocation.
 */
@Entity({ name: 'api_keys' })
@Check('api_keys_type_check', `type IN ('server','sdk')`)
@Check('api_keys_environment_check', `environment IN ('live','test')`)
@Unique('api_keys_secret_hash_key', ['secretHash'])
@Index('api_keys_org', ['organizationId'])
@Index('api_keys_revoked', ['revokedAt'], { where: 'revoked_at IS NOT NULL' })
export class ApiKey {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'api_keys_pkey' })
  id!: string;

  @Column({ name: 'organization_id', type: 'text' })
  organizationId!: string;

  @ManyToOne(() => Organization, { nullable: false })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'api_keys_organization_id_fkey' })
  organization?: Relation<Organization>;

  /** null: every workspace of the organization in the key's environment */
  @Column({ name: 'workspace_id', type: 'text', nullable: true })
  workspaceId!: string | null;

  @ManyToOne(() => Workspace)
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'api_keys_workspace_id_fkey' })
  workspace?: Relation<Workspace> | null;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  type!: 'server' | 'sdk';

  @Column({ type: 'text' })
  environment!: 'live' | 'test';

  /** readable start of the key, for humans */
  @Column({ type: 'text' })
  prefix!: string;

  @Column({ name: 'secret_hash', type: 'text' })
  secretHash!: string;

  @Column({ type: 'text', array: true })
  scopes!: string[];

  /** sdk keys act for this player only */
  @Column({ name: 'player_id', type: 'text', nullable: true })
  playerId!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt!: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt!: Date | null;

  /** key id of the creator; null for bootstrap and test factories */
  @Column({ name: 'created_by', type: 'text', nullable: true })
  createdBy!: string | null;

  /** key id that revoked it */
  @Column({ name: 'revoked_by', type: 'text', nullable: true })
  revokedBy!: string | null;
}

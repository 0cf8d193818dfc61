import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { PlatformOrganization } from './platform-organization.entity';

/** An organisation's user on the platform API, with an organisation-wide role. */
@Entity({ name: 'platform_users' })
@Check('platform_users_role_check', `role IN ('agent','manager','admin')`)
@Check('platform_users_status_check', `status IN ('invited','active','deactivated','erased')`)
@Index('platform_users_email', ['organizationId', 'email'], { unique: true })
@Index('platform_users_org', ['organizationId', 'createdAt', 'id'])
export class PlatformUser {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'platform_users_pkey' })
  id!: string;

  @Column({ name: 'organization_id', type: 'text' })
  organizationId!: string;

  @ManyToOne(() => PlatformOrganization, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'platform_users_organization_id_fkey' })
  organization?: Relation<PlatformOrganization>;

  /** lower-cased; null once erased (90 days after deactivation) */
  @Column({ type: 'text', nullable: true })
  email!: string | null;

  @Column({ type: 'text', nullable: true })
  name!: string | null;

  @Column({ type: 'text' })
  role!: 'agent' | 'manager' | 'admin';

  /** an organisation admin: an admin with this set */
  @Column({ name: 'is_org_admin', type: 'boolean', default: false })
  isOrgAdmin!: boolean;

  @Column({ type: 'text' })
  status!: 'invited' | 'active' | 'deactivated' | 'erased';

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;

  @Column({ name: 'last_active_at', type: 'timestamptz', nullable: true })
  lastActiveAt!: Date | null;

  @Column({ name: 'activated_at', type: 'timestamptz', nullable: true })
  activatedAt!: Date | null;

  /** starts the 90-day reactivation window, then erasure */
  @Column({ name: 'deactivated_at', type: 'timestamptz', nullable: true })
  deactivatedAt!: Date | null;

  @Column({ name: 'erased_at', type: 'timestamptz', nullable: true })
  erasedAt!: Date | null;

  /** how many times the user was deactivated: names each deactivation's workflow */
  @Column({ type: 'integer', default: 0 })
  deactivations!: number;
}

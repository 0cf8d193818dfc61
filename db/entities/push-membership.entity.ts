import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { PushCompany } from './push-company.entity';
import { PushUser } from './push-user.entity';

/** A user's place in a company (docs/push.md, "Ownership"). */
@Entity({ name: 'push_memberships' })
@Check('push_memberships_role_check', `role IN ('owner','member')`)
@Index('push_memberships_company', ['companyId'])
export class PushMembership {
  @PrimaryColumn({ name: 'user_id', type: 'uuid', primaryKeyConstraintName: 'push_memberships_pkey' })
  userId!: string;

  @PrimaryColumn({ name: 'company_id', type: 'uuid', primaryKeyConstraintName: 'push_memberships_pkey' })
  companyId!: string;

  @ManyToOne(() => PushUser, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'push_memberships_user_id_fkey' })
  user?: Relation<PushUser>;

  @ManyToOne(() => PushCompany, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'company_id', foreignKeyConstraintName: 'push_memberships_company_id_fkey' })
  company?: Relation<PushCompany>;

  @Column({ type: 'text', default: 'owner' })
  role!: 'owner' | 'member';

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}

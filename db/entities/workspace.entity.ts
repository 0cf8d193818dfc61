import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { Organization } from './organization.entity';

/** A game (or environment of one) inside an organization; tickets and players live here. */
@Entity({ name: 'workspaces' })
@Check('workspaces_environment_check', `environment IN ('live','sandbox')`)
@Index('workspaces_org', ['organizationId'])
export class Workspace {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'workspaces_pkey' })
  id!: string;

  @Column({ name: 'organization_id', type: 'text' })
  organizationId!: string;

  @ManyToOne(() => Organization, { nullable: false })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'workspaces_organization_id_fkey' })
  organization?: Relation<Organization>;

  @Column({ type: 'text' })
  name!: string;

  /** sk_test_ keys see only sandbox workspaces, sk_live_ keys only live ones */
  @Column({ type: 'text' })
  environment!: 'live' | 'sandbox';

  /** domain/workspaces/settings.rules.ts reads it with defaults for what is missing */
  @Column({ type: 'jsonb', default: () => "'{}'" })
  settings!: Record<string, unknown>;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}

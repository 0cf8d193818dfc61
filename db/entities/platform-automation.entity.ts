import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { PlatformOrganization } from './platform-organization.entity';
import { PlatformUser } from './platform-user.entity';
import { PlatformWorkspace } from './platform-workspace.entity';

/** A platform automation: a workspace's rule (trigger, conditions, actions) for the tickets of one environment. */
@Entity({ name: 'platform_automations' })
@Check('platform_automations_environment_check', `environment IN ('live','test')`)
@Check('platform_automations_trigger_check', `trigger IN ('ticket.created','ticket.updated')`)
@Index('platform_automations_workspace', ['workspaceId', 'environment', 'createdAt', 'id'])
export class PlatformAutomation {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'platform_automations_pkey' })
  id!: string;

  @Column({ name: 'organization_id', type: 'text' })
  organizationId!: string;

  @ManyToOne(() => PlatformOrganization, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'organization_id', foreignKeyConstraintName: 'platform_automations_organization_id_fkey' })
  organization?: Relation<PlatformOrganization>;

  @Column({ name: 'workspace_id', type: 'text' })
  workspaceId!: string;

  @ManyToOne(() => PlatformWorkspace, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'platform_automations_workspace_id_fkey' })
  workspace?: Relation<PlatformWorkspace>;

  @Column({ type: 'text' })
  environment!: 'live' | 'test';

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text' })
  trigger!: 'ticket.created' | 'ticket.updated';

  /** [{field, operator, value}], all must hold; [] always matches */
  @Column({ type: 'jsonb', default: () => "'[]'" })
  conditions!: unknown[];

  /** [{type, …}], at least one */
  @Column({ type: 'jsonb' })
  actions!: unknown[];

  @Column({ type: 'boolean', default: true })
  active!: boolean;

  @Column({ name: 'created_by', type: 'text', nullable: true })
  createdBy!: string | null;

  @ManyToOne(() => PlatformUser)
  @JoinColumn({ name: 'created_by', foreignKeyConstraintName: 'platform_automations_created_by_fkey' })
  creator?: Relation<PlatformUser> | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', default: () => 'now()' })
  updatedAt!: Date;
}

import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { PlatformUser } from './platform-user.entity';
import { PlatformWorkspace } from './platform-workspace.entity';

/** A platform user's access to one workspace of their organisation. */
@Entity({ name: 'platform_memberships' })
@Index('platform_memberships_user', ['userId'])
export class PlatformMembership {
  @PrimaryColumn({ name: 'workspace_id', type: 'text', primaryKeyConstraintName: 'platform_memberships_pkey' })
  workspaceId!: string;

  @PrimaryColumn({ name: 'user_id', type: 'text', primaryKeyConstraintName: 'platform_memberships_pkey' })
  userId!: string;

  @ManyToOne(() => PlatformWorkspace, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'platform_memberships_workspace_id_fkey' })
  workspace?: Relation<PlatformWorkspace>;

  @ManyToOne(() => PlatformUser, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'platform_memberships_user_id_fkey' })
  user?: Relation<PlatformUser>;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}

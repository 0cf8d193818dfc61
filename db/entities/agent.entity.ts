import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { Workspace } from './workspace.entity';

/** A support agent tickets are assigned to. */
@Entity({ name: 'agents' })
@Index('agents_ws', ['workspaceId', 'createdAt'])
export class Agent {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'agents_pkey' })
  id!: string;

  @Column({ name: 'workspace_id', type: 'text' })
  workspaceId!: string;

  @ManyToOne(() => Workspace, { nullable: false })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'agents_workspace_id_fkey' })
  workspace?: Relation<Workspace>;

  @Column({ type: 'text' })
  name!: string;

  @Column({ type: 'text', nullable: true })
  email!: string | null;

  @Column({ name: 'avatar_url', type: 'text', nullable: true })
  avatarUrl!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}

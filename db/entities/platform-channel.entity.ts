import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { PlatformWorkspace } from './platform-workspace.entity';

/** A workspace's support channel (email, web, chat, in-game, API) on the platform API. */
@Entity({ name: 'platform_channels' })
@Check('platform_channels_type_check', `type IN ('email','web','chat','in_game','api')`)
@Index('platform_channels_workspace', ['workspaceId', 'createdAt', 'id'])
export class PlatformChannel {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'platform_channels_pkey' })
  id!: string;

  @Column({ name: 'workspace_id', type: 'text' })
  workspaceId!: string;

  @ManyToOne(() => PlatformWorkspace, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'platform_channels_workspace_id_fkey' })
  workspace?: Relation<PlatformWorkspace>;

  @Column({ type: 'text' })
  type!: 'email' | 'web' | 'chat' | 'in_game' | 'api';

  @Column({ type: 'text' })
  name!: string;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}

import { Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { PlatformUser } from './platform-user.entity';
import { PlatformWorkspace } from './platform-workspace.entity';

/** An invited platform user's single-use activation link: only the SHA-256 of it is kept. */
@Entity({ name: 'platform_activation_tokens' })
@Index('platform_activation_tokens_user', ['userId'])
export class PlatformActivationToken {
  @PrimaryColumn({ name: 'token_hash', type: 'text', primaryKeyConstraintName: 'platform_activation_tokens_pkey' })
  tokenHash!: string;

  @Column({ name: 'user_id', type: 'text' })
  userId!: string;

  @ManyToOne(() => PlatformUser, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'user_id', foreignKeyConstraintName: 'platform_activation_tokens_user_id_fkey' })
  user?: Relation<PlatformUser>;

  /** the invitation's workspace: the activated user's first token is made there */
  @Column({ name: 'workspace_id', type: 'text', nullable: true })
  workspaceId!: string | null;

  @ManyToOne(() => PlatformWorkspace, { nullable: true, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'platform_activation_tokens_workspace_id_fkey' })
  workspace?: Relation<PlatformWorkspace>;

  @Column({ name: 'expires_at', type: 'timestamptz' })
  expiresAt!: Date;

  @Column({ name: 'used_at', type: 'timestamptz', nullable: true })
  usedAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;
}

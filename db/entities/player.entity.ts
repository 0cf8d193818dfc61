import { Column, Entity, JoinColumn, ManyToOne, PrimaryColumn, Unique, type Relation } from 'typeorm';
import { Workspace } from './workspace.entity';

/** A player profile (`kpl_` id), unique per (workspace, caller's playerId); erased rows stay. */
@Entity({ name: 'players' })
@Unique('players_workspace_id_player_id_key', ['workspaceId', 'playerId'])
export class Player {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'players_pkey' })
  id!: string;

  @Column({ name: 'workspace_id', type: 'text' })
  workspaceId!: string;

  @ManyToOne(() => Workspace, { nullable: false })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'players_workspace_id_fkey' })
  workspace?: Relation<Workspace>;

  /** the caller's own id for the player */
  @Column({ name: 'player_id', type: 'text' })
  playerId!: string;

  @Column({ name: 'display_name', type: 'text', nullable: true })
  displayName!: string | null;

  @Column({ type: 'text', nullable: true })
  email!: string | null;

  @Column({ type: 'jsonb', default: () => "'{}'" })
  metadata!: Record<string, string>;

  @Column({ name: 'first_seen_at', type: 'timestamptz' })
  firstSeenAt!: Date;

  @Column({ name: 'last_seen_at', type: 'timestamptz' })
  lastSeenAt!: Date;

  @Column({ name: 'erased_at', type: 'timestamptz', nullable: true })
  erasedAt!: Date | null;
}

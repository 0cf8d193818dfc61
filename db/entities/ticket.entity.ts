import { Check, Column, Entity, Index, JoinColumn, ManyToOne, PrimaryColumn, type Relation } from 'typeorm';
import { Agent } from './agent.entity';
import { Player } from './player.entity';
import { Workspace } from './workspace.entity';

/**
 * The expression of the generated `search` column. TypeORM compares it with the copy it
 * keeps in `typeorm_metadata` (migration TypeormMetadata writes that row), so a change
 * here without a migration fails test/db/entities-match-schema.test.ts.
 */
export const TICKET_SEARCH_EXPRESSION =
  "setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', body), 'B')";

// The list, filter and cursor indexes are ordered DESC, and tickets_search is a GIN
// index: TypeORM's @Index can express neither, so they are declared by name with
// synchronize:false (the schema builder leaves them alone) and created by the
// Initial migration; the entities test checks that every index here exists.
/** The projection of a ticket workflow's state (the workflow is its only writer after creation). */
@Entity({ name: 'tickets' })
@Check('tickets_status_check', `status IN ('open','in_progress','resolved','closed')`)
@Check('tickets_priority_check', `priority IN ('low','medium','high','urgent')`)
@Check('tickets_source_check', `source IN ('api','sdk','discord','steam','email')`)
@Index('tickets_ws_created', { synchronize: false }) // (workspace_id, created_at DESC, id DESC): list default sort, cursor
@Index('tickets_ws_updated', { synchronize: false }) // (workspace_id, updated_at DESC, id DESC): sortBy=updatedAt, updatedSince
@Index('tickets_ws_status', { synchronize: false }) // (workspace_id, status, created_at DESC)
@Index('tickets_ws_assignee', { synchronize: false }) // (workspace_id, assignee_id, created_at DESC)
@Index('tickets_player', { synchronize: false }) // (player_ref, created_at DESC): a player's tickets, ticketCount
@Index('tickets_search', { synchronize: false }) // GIN (search): full-text search
export class Ticket {
  @PrimaryColumn({ type: 'text', primaryKeyConstraintName: 'tickets_pkey' })
  id!: string;

  @Column({ name: 'workspace_id', type: 'text' })
  workspaceId!: string;

  @ManyToOne(() => Workspace, { nullable: false })
  @JoinColumn({ name: 'workspace_id', foreignKeyConstraintName: 'tickets_workspace_id_fkey' })
  workspace?: Relation<Workspace>;

  /** null once the player is erased */
  @Column({ name: 'player_ref', type: 'text', nullable: true })
  playerRef!: string | null;

  @ManyToOne(() => Player)
  @JoinColumn({ name: 'player_ref', foreignKeyConstraintName: 'tickets_player_ref_fkey' })
  player?: Relation<Player> | null;

  /** the caller's player id (anonymised on erasure) */
  @Column({ name: 'player_id', type: 'text' })
  playerId!: string;

  @Column({ type: 'varchar', length: 255 })
  title!: string;

  @Column({ type: 'text' })
  body!: string;

  @Column({ type: 'text' })
  status!: 'open' | 'in_progress' | 'resolved' | 'closed';

  @Column({ type: 'text' })
  priority!: 'low' | 'medium' | 'high' | 'urgent';

  /** sortBy=priority: urgent highest */
  @Column({ name: 'priority_rank', type: 'smallint' })
  priorityRank!: number;

  @Column({ type: 'text', nullable: true })
  category!: string | null;

  @Column({ type: 'text' })
  source!: 'api' | 'sdk' | 'discord' | 'steam' | 'email';

  @Column({ type: 'text', array: true, default: () => "'{}'" })
  tags!: string[];

  @Column({ type: 'jsonb', default: () => "'{}'" })
  metadata!: Record<string, unknown>;

  @Column({ name: 'assignee_id', type: 'text', nullable: true })
  assigneeId!: string | null;

  @ManyToOne(() => Agent)
  @JoinColumn({ name: 'assignee_id', foreignKeyConstraintName: 'tickets_assignee_id_fkey' })
  assignee?: Relation<Agent> | null;

  @Column({ name: 'ai_triaged', type: 'boolean', default: false })
  aiTriaged!: boolean;

  @Column({ name: 'ai_suggested_category', type: 'text', nullable: true })
  aiSuggestedCategory!: string | null;

  @Column({ name: 'ai_confidence', type: 'double precision', nullable: true })
  aiConfidence!: number | null;

  @Column({ name: 'ai_suggested_reply', type: 'text', nullable: true })
  aiSuggestedReply!: string | null;

  @Column({ name: 'internal_note', type: 'text', nullable: true })
  internalNote!: string | null;

  @Column({ name: 'resolution_note', type: 'text', nullable: true })
  resolutionNote!: string | null;

  @Column({ name: 'message_count', type: 'integer', default: 0 })
  messageCount!: number;

  /** last lifecycle step applied: activities write each step once */
  @Column({ type: 'integer', default: 1 })
  version!: number;

  @Column({ name: 'created_at', type: 'timestamptz' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz' })
  updatedAt!: Date;

  @Column({ name: 'resolved_at', type: 'timestamptz', nullable: true })
  resolvedAt!: Date | null;

  @Column({ name: 'closed_at', type: 'timestamptz', nullable: true })
  closedAt!: Date | null;

  @Column({ name: 'first_response_at', type: 'timestamptz', nullable: true })
  firstResponseAt!: Date | null;

  /** weighted title (A) and body (B) vector; Postgres computes it, nobody writes it */
  @Column({
    type: 'tsvector',
    generatedType: 'STORED',
    asExpression: TICKET_SEARCH_EXPRESSION,
    select: false,
    insert: false,
    update: false,
    nullable: true,
  })
  search?: string;
}

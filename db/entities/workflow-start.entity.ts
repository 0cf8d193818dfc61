import { Column, Entity, Index, PrimaryColumn } from 'typeorm';

/**
 * The workflow-start outbox: one entry per workflow an entity is to get, written in the
 * transaction that stores the entity (db/repositories/workflow-starts.ts). The start
 * dispatcher of the entry's task queue (workers/workflow-start-dispatcher.ts) starts it
 * and deletes the entry. An AFTER INSERT trigger (migration WorkflowStarts) NOTIFYs
 * `workflow_starts_<task queue>`.
 */
@Entity({ name: 'workflow_starts' })
// the claim: a queue's entries, oldest first
@Index('workflow_starts_queue', ['taskQueue', 'createdAt'])
export class WorkflowStart {
  @PrimaryColumn({ name: 'workflow_id', type: 'text', primaryKeyConstraintName: 'workflow_starts_pkey' })
  workflowId!: string;

  @Column({ name: 'workflow_type', type: 'text' })
  workflowType!: string;

  @Column({ name: 'task_queue', type: 'text' })
  taskQueue!: string;

  /** the workflow's arguments, JSON the outbox never reads */
  @Column({ type: 'jsonb' })
  args!: unknown[];

  @Column({ name: 'search_attributes', type: 'jsonb', nullable: true })
  searchAttributes!: Record<string, string[] | number[] | boolean[]> | null;

  @Column({ type: 'jsonb', nullable: true })
  memo!: Record<string, unknown> | null;

  @Column({ name: 'created_at', type: 'timestamptz', default: () => 'now()' })
  createdAt!: Date;

  /** a dispatcher took it; taken up again if it is still here a while later */
  @Column({ name: 'claimed_at', type: 'timestamptz', nullable: true })
  claimedAt!: Date | null;
}

// workflow_starts: the outbox of workflow starts. A change that creates an entity (a
// ticket, a push send) enqueues its workflow in the same transaction; the start dispatcher
// of the entry's task queue (workers/workflow-start-dispatcher.ts) claims it, starts the
// workflow with startOnce and forgets the entry. The arguments are the caller's JSON: the
// outbox never reads them.
import { WorkflowStart } from '../entities';
import { managerOf, sql, type Executor } from '../db';

/** Search attribute values as JSON (keyword, text, number, bool), each a list. */
export type OutboxSearchAttributes = Record<string, string[] | number[] | boolean[]>;

/** One workflow to start: everything its start takes, as JSON. */
export interface OutboxStart {
  workflowId: string;
  workflowType: string;
  taskQueue: string;
  args: unknown[];
  searchAttributes?: OutboxSearchAttributes | null;
  memo?: Record<string, unknown> | null;
}

/** The NOTIFY channel of a task queue's entries (the trigger of migration WorkflowStarts). */
export function workflowStartsChannel(taskQueue: string): string {
  return `workflow_starts_${taskQueue.toLowerCase().replace(/[^a-z0-9_]/g, '_')}`;
}

/**
 * In the transaction that stores the entity: its workflow is to be started. An entry
 * already pending under the same workflow id stays as it is (one workflow per id).
 */
export async function enqueueWorkflowStart(executor: Executor, start: OutboxStart): Promise<void> {
  await sql(
    executor,
    `INSERT INTO workflow_starts (workflow_id, workflow_type, task_queue, args, search_attributes, memo)
     VALUES ($1, $2, $3, $4::jsonb, $5::jsonb, $6::jsonb)
     ON CONFLICT (workflow_id) DO NOTHING`,
    [
      start.workflowId,
      start.workflowType,
      start.taskQueue,
      JSON.stringify(start.args),
      start.searchAttributes ? JSON.stringify(start.searchAttributes) : null,
      start.memo ? JSON.stringify(start.memo) : null,
    ],
  );
}

/**
 * Several starts in one statement (a fire that matched several triggers): the same as
 * enqueueWorkflowStart for each, one round trip.
 */
export async function enqueueWorkflowStarts(executor: Executor, starts: OutboxStart[]): Promise<void> {
  if (starts.length <= 1) return starts.length ? enqueueWorkflowStart(executor, starts[0]) : undefined;
  await sql(
    executor,
    `INSERT INTO workflow_starts (workflow_id, workflow_type, task_queue, args, search_attributes, memo)
     SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::jsonb[], $5::jsonb[], $6::jsonb[])
     ON CONFLICT (workflow_id) DO NOTHING`,
    [
      starts.map((s) => s.workflowId),
      starts.map((s) => s.workflowType),
      starts.map((s) => s.taskQueue),
      starts.map((s) => JSON.stringify(s.args)),
      starts.map((s) => (s.searchAttributes ? JSON.stringify(s.searchAttributes) : null)),
      starts.map((s) => (s.memo ? JSON.stringify(s.memo) : null)),
    ],
  );
}

/** The pending start of a workflow id, if that workflow is not known to be started. */
export async function findWorkflowStart(executor: Executor, workflowId: string): Promise<OutboxStart | null> {
  const row = await managerOf(executor).findOne(WorkflowStart, { where: { workflowId } });
  if (!row) return null;
  const { workflowType, taskQueue, args, searchAttributes, memo } = row;
  return { workflowId, workflowType, taskQueue, args, searchAttributes, memo };
}

/**
 * Claims up to `limit` pending starts of one task queue, oldest first (SKIP LOCKED:
 * several dispatchers never take the same one). A claim older than `reclaimAfterMs` is
 * taken up again: its dispatcher died, or could not start it, between claim and start.
 */
export async function claimWorkflowStarts(
  executor: Executor,
  opts: { taskQueue: string; limit: number; reclaimAfterMs: number },
): Promise<OutboxStart[]> {
  const { rows } = await sql<OutboxStart>(
    executor,
    `UPDATE workflow_starts s SET claimed_at = now()
       FROM (SELECT workflow_id FROM workflow_starts
              WHERE task_queue = $1
                AND (claimed_at IS NULL OR claimed_at < now() - make_interval(secs => $3::double precision))
              ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED) c
      WHERE s.workflow_id = c.workflow_id
      RETURNING s.workflow_id AS "workflowId", s.workflow_type AS "workflowType", s.task_queue AS "taskQueue",
                s.args, s.search_attributes AS "searchAttributes", s.memo`,
    [opts.taskQueue, opts.limit, opts.reclaimAfterMs / 1000],
  );
  return rows;
}

/** Their workflows are started: the entries are done. */
export async function forgetWorkflowStarts(executor: Executor, workflowIds: string[]): Promise<void> {
  if (!workflowIds.length) return;
  await sql(executor, `DELETE FROM workflow_starts WHERE workflow_id = ANY($1::text[])`, [workflowIds]);
}

/** How many workflows of a task queue wait for their start (tests, operators). */
export async function countPendingWorkflowStarts(executor: Executor, taskQueue: string): Promise<number> {
  return managerOf(executor).count(WorkflowStart, { where: { taskQueue } });
}

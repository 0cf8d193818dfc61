// An Update to an entity's workflow (a campaign, a trial request) that may still wait in
// the workflow-start outbox: sent to the running workflow, or, while its outbox entry is
// pending, an update-with-start of that entry's own input, so a change never waits for
// the dispatcher nor gets lost before it. Every Temporal call keeps the request's deadline
// (lib/temporal/deadline.ts). Refusals and ended workflows reach the caller unchanged:
// each gateway answers them in its own words.
import { WithStartWorkflowOperation } from '@temporalio/client';
import { WorkflowIdReusePolicy, WorkflowNotFoundError, type UpdateDefinition } from '@temporalio/common';
import { findWorkflowStart } from '../../db/repositories/workflow-starts';
import { withinDeadline } from '../../lib/temporal/deadline';
import type { AppDeps } from '../deps';

export interface EntityUpdate<Ret, Args extends unknown[]> {
  workflowId: string;
  workflowType: string;
  update: UpdateDefinition<Ret, Args>;
  args: Args;
  /** the Temporal calls' deadline in ms (the answer comes a second later at the most) */
  deadlineMs: number;
}

export async function updateEntityWorkflow<Ret, Args extends unknown[]>(deps: AppDeps, u: EntityUpdate<Ret, Args>): Promise<Ret> {
  const within = <R>(fn: () => Promise<R>) => withinDeadline(deps.temporal, u.deadlineMs, fn);
  // one signature for updates with and without arguments
  const def = u.update as unknown as UpdateDefinition<Ret, [unknown, ...unknown[]]>;
  const opts = { args: u.args as unknown as [unknown, ...unknown[]] };
  const direct = () => within(() => deps.temporal.workflow.getHandle(u.workflowId).executeUpdate(def, opts));
  try {
    return await direct();
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
    const pending = await findWorkflowStart(deps.db, u.workflowId);
    if (!pending) return await direct(); // started (and its entry dropped) between the two reads
    const startWorkflowOperation = new WithStartWorkflowOperation(u.workflowType, {
      workflowId: u.workflowId,
      taskQueue: pending.taskQueue,
      args: pending.args,
      workflowIdConflictPolicy: 'USE_EXISTING',
      // a run that already ended is never started again
      workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      searchAttributes: pending.searchAttributes ?? undefined,
    });
    return await within(() => deps.temporal.workflow.executeUpdateWithStart(def, { ...opts, startWorkflowOperation }));
  }
}

/** A workflow that ended (completed, or gone) answers an Update with one of these. */
export function isEndedWorkflow(err: unknown): boolean {
  return err instanceof WorkflowNotFoundError || (err instanceof Error && /already completed|already started|not found/i.test(err.message));
}

// The one way a request changes an entity through its workflow (docs/workflows.md,
// "Changing an entity: the one Update path"): an Update to the running workflow, or,
// while the workflow's start still waits in the outbox, an update-with-start of that
// entry, so a change never waits for the start dispatcher nor gets lost before it. All
// the Temporal calls of one change share the request's deadline (lib/temporal/deadline.ts).
//
// What comes back is one of three things, told apart by the SDK's error types alone:
// - a domain refusal (workflows/refusal.ts, or an activity's: activities/failures.ts),
//   thrown as the DomainError it was, which the error middleware answers;
// - an ended or missing workflow (workflow-outcome.ts, isEndedWorkflow), answered from
//   the stored row by the caller's `onEnded`;
// - anything else: Temporal or a worker is down (or too slow): logged, 503 Retry-After.
import { WithStartWorkflowOperation } from '@temporalio/client';
import { WorkflowIdReusePolicy, type UpdateDefinition } from '@temporalio/common';
import { findWorkflowStart } from '../../db/repositories/workflow-starts';
import type { DomainError } from '../../domain/errors';
import { requestDeadline } from '../../lib/temporal/deadline';
import type { AppDeps } from '../deps';
import { errors } from './errors';
import { isEndedWorkflow, refusalOf } from './workflow-outcome';

export interface WorkflowUpdate<Ret, Args extends unknown[]> {
  workflowId: string;
  update: UpdateDefinition<Ret, Args>;
  args: Args;
  /**
   * The workflow has ended or never ran (and no start is pending), or it refused with a
   * code of `answeredFromRow`: the stored row answers. Return the reply or throw the
   * refusal (a DomainError, an AppError); `ended.restart` sends this same Update with a
   * new run's start (a ticket's deletion after its lifecycle ended).
   */
  onEnded(ended: EndedWorkflow<Ret>): Promise<Ret>;
  /**
   * Refusal codes whose answer needs the stored row, not the workflow's words (a
   * campaign's `campaign_not_scheduled` names the status the row has by then): they go to
   * `onEnded` with `ended.refusal` set.
   */
  answeredFromRow?: readonly string[];
  /** The queue the workflow runs on when this change starts it; default: its outbox entry's. */
  taskQueue?: string;
  /** Only for callers no request waits for (a crash test); every gateway keeps REQUEST_DEADLINE_MS. */
  deadlineMs?: number;
}

export interface EndedWorkflow<Ret> {
  /** the refusal of a code in `answeredFromRow`; null when the workflow has ended or never ran */
  refusal: DomainError | null;
  /**
   * Update-with-start of a new run of `workflowType` under the same id (the ended run's id
   * may be reused), taking this Update as its first step; a run still finishing takes
   * it instead (USE_EXISTING). Its refusals are thrown as DomainErrors, anything else is a 503.
   */
  restart(start: { workflowType: string; taskQueue: string; args: unknown[] }): Promise<Ret>;
}

/** Sends `u.update` to the entity's workflow and answers its reply (see the file's head). */
export async function updateWorkflow<Ret, Args extends unknown[]>(deps: AppDeps, u: WorkflowUpdate<Ret, Args>): Promise<Ret> {
  const within = requestDeadline(deps.temporal, u.deadlineMs);
  // one signature for updates with and without arguments
  const def = u.update as unknown as UpdateDefinition<Ret, [unknown, ...unknown[]]>;
  const opts = { args: u.args as unknown as [unknown, ...unknown[]] };
  const unavailable = (err: unknown) => {
    deps.logger.error({ err, workflowId: u.workflowId, update: u.update.name }, 'workflow update failed');
    return errors.unavailable();
  };

  const send = () => within(() => deps.temporal.workflow.getHandle(u.workflowId).executeUpdate(def, opts));
  const sendOrStart = async (): Promise<Ret> => {
    try {
      return await send();
    } catch (err) {
      if (!isEndedWorkflow(err)) throw err;
      const pending = await findWorkflowStart(deps.db, u.workflowId);
      if (!pending) return await send(); // started (and its entry dropped) between the two reads, or ended
      const startWorkflowOperation = new WithStartWorkflowOperation(pending.workflowType, {
        workflowId: u.workflowId,
        taskQueue: u.taskQueue ?? pending.taskQueue,
        args: pending.args,
        workflowIdConflictPolicy: 'USE_EXISTING',
        // the entry's start is the first and only one: a run that ended is never started again
        workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
        searchAttributes: pending.searchAttributes ?? undefined,
      });
      return await within(() => deps.temporal.workflow.executeUpdateWithStart(def, { ...opts, startWorkflowOperation }));
    }
  };

  const restart: EndedWorkflow<Ret>['restart'] = async (start) => {
    const startWorkflowOperation = new WithStartWorkflowOperation(start.workflowType, {
      workflowId: u.workflowId,
      taskQueue: start.taskQueue,
      args: start.args,
      workflowIdConflictPolicy: 'USE_EXISTING',
    });
    try {
      return await within(() => deps.temporal.workflow.executeUpdateWithStart(def, { ...opts, startWorkflowOperation }));
    } catch (err) {
      throw refusalOf(err) ?? unavailable(err);
    }
  };

  let failure: unknown;
  try {
    return await sendOrStart();
  } catch (err) {
    failure = err;
  }
  const refusal = refusalOf(failure);
  if (refusal && !u.answeredFromRow?.includes(refusal.code)) throw refusal;
  if (refusal || isEndedWorkflow(failure)) return u.onEnded({ refusal, restart });
  throw unavailable(failure);
}

// The one way code starts an entity's workflow by its deterministic id: at most one run
// per id (REJECT_DUPLICATE), and "already started" counts as success, so a dispatcher
// that restarts between claim and start, two dispatchers, a reclaim, or a change that
// started the workflow first never start it twice and never fail for it.
import { InternalConnectionLikeSymbol, WorkflowExecutionAlreadyStartedError, type Client, type InternalConnectionLike, type WorkflowStartOptions } from '@temporalio/client';
import { WorkflowIdReusePolicy } from '@temporalio/common';
import { withinDeadline } from './deadline';

export interface StartOnceOptions extends Omit<WorkflowStartOptions, 'workflowIdReusePolicy' | 'requestEagerStart'> {
  /**
   * Ask for the run's first workflow task in the start's answer, for a worker of this
   * process on that task queue (eager workflow start). Only a client on a worker's
   * NativeConnection can take it; any other client starts as usual. The server falls back
   * to a normal start when it cannot (docs/workflows.md, "Eager starts").
   */
  eager?: boolean;
  /** give up (DEADLINE_EXCEEDED, at the latest a second later: lib/temporal/deadline.ts) when Temporal has not accepted the start within this many ms */
  deadlineMs?: number;
  /**
   * For an id that names one run at a time rather than one run ever (a manual webhook
   * delivery, sent again after its last run ended): a closed run's id may start again
   * (ALLOW_DUPLICATE); a running one still counts as already started.
   */
  reuseClosedId?: boolean;
}

/** Starts `workflowType` under `options.workflowId`; true if this call started it, false if it already existed. */
export async function startOnce(client: Client, workflowType: string, options: StartOnceOptions): Promise<boolean> {
  const { deadlineMs, reuseClosedId, eager, ...startOptions } = options;
  const workflowIdReusePolicy = reuseClosedId ? WorkflowIdReusePolicy.ALLOW_DUPLICATE : WorkflowIdReusePolicy.REJECT_DUPLICATE;
  const requestEagerStart = Boolean(eager && sharesWorkerConnection(client));
  const start = () => client.workflow.start(workflowType, { ...startOptions, workflowIdReusePolicy, requestEagerStart } as WorkflowStartOptions);
  try {
    await (deadlineMs === undefined ? start() : withinDeadline(client, deadlineMs, start));
    return true;
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return false;
    throw err;
  }
}

/** The client runs on a worker's NativeConnection, the only one an eager start can use. */
function sharesWorkerConnection(client: Client): boolean {
  return Boolean((client.connection as InternalConnectionLike)[InternalConnectionLikeSymbol]?.supportsEagerStart);
}

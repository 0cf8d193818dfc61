// The one way code starts an entity's workflow by its deterministic id: at most one run
// per id (REJECT_DUPLICATE), and "already started" counts as success, so a dispatcher
// that restarts between claim and start, two dispatchers, a reclaim, or a change that
// started the workflow first never start it twice and never fail for it.
import { WorkflowExecutionAlreadyStartedError, type Client, type WorkflowStartOptions } from '@temporalio/client';
import { WorkflowIdReusePolicy } from '@temporalio/common';
import { withinDeadline } from './deadline';

export interface StartOnceOptions extends Omit<WorkflowStartOptions, 'workflowIdReusePolicy'> {
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
  const { deadlineMs, reuseClosedId, ...startOptions } = options;
  const workflowIdReusePolicy = reuseClosedId ? WorkflowIdReusePolicy.ALLOW_DUPLICATE : WorkflowIdReusePolicy.REJECT_DUPLICATE;
  const start = () => client.workflow.start(workflowType, { ...startOptions, workflowIdReusePolicy } as WorkflowStartOptions);
  try {
    await (deadlineMs === undefined ? start() : withinDeadline(client, deadlineMs, start));
    return true;
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return false;
    throw err;
  }
}

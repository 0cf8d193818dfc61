// The one way code starts an entity's workflow by its deterministic id: at most one run
// per id (REJECT_DUPLICATE), and "already started" counts as success, so a dispatcher
// that restarts between claim and start, two dispatchers, a reclaim, or a change that
// started the workflow first never start it twice and never fail for it.
import { WorkflowExecutionAlreadyStartedError, type Client, type WorkflowStartOptions } from '@temporalio/client';
import { WorkflowIdReusePolicy } from '@temporalio/common';

export interface StartOnceOptions extends Omit<WorkflowStartOptions, 'workflowIdReusePolicy'> {
  /** give up (DEADLINE_EXCEEDED) when Temporal has not accepted the start within this many ms */
  deadlineMs?: number;
}

/** Starts `workflowType` under `options.workflowId`; true if this call started it, false if it already existed. */
export async function startOnce(client: Client, workflowType: string, options: StartOnceOptions): Promise<boolean> {
  const { deadlineMs, ...startOptions } = options;
  const start = () =>
    client.workflow.start(workflowType, { ...startOptions, workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE } as WorkflowStartOptions);
  try {
    await (deadlineMs === undefined ? start() : client.withDeadline(Date.now() + deadlineMs, start));
    return true;
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return false;
    throw err;
  }
}

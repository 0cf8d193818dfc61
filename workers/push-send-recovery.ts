// Beside the `push` worker: starts the workflow of any send whose rows committed but whose
// workflow never started (the API process died between its commit and the start). The
// API itself removes a send whose start failed and answers 503, so this finds only sends
// of an API that died mid-request. REJECT_DUPLICATE: a send that has its workflow (even one
// that has not run its first page yet) is never started twice.
import type { Client } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy } from '@temporalio/common';
import type { Db } from '../db/db';
import { unstartedSends } from '../db/repositories/push-sends';
import type { Logger } from '../lib/logger';
import { PUSH_QUEUE, PUSH_SEND_WORKFLOW_TYPE, pushSendWorkflowId, type PushSendInput } from '../workflows/push-send/contract';

/** A send still `queued` this long after its commit is looked at (the API gives up its start after 5 s). */
export const UNSTARTED_AFTER_SECONDS = 60;
const EVERY_MS = 30_000;

export async function startUnstartedSends(deps: { db: Db; client: Client }): Promise<number> {
  let started = 0;
  for (const sendId of await unstartedSends(deps.db, UNSTARTED_AFTER_SECONDS, 100)) {
    const input: PushSendInput = { sendId };
    try {
      await deps.client.workflow.start(PUSH_SEND_WORKFLOW_TYPE, {
        taskQueue: PUSH_QUEUE,
        workflowId: pushSendWorkflowId(sendId),
        args: [input],
        workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      });
      started++;
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    }
  }
  return started;
}

/** Runs startUnstartedSends every 30 s; resolves to a function that stops it. */
export function startSendRecovery(deps: { db: Db; client: Client; logger: Logger }): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  const timer = setInterval(() => {
    running = startUnstartedSends(deps)
      .then((n) => n && deps.logger.warn({ started: n }, 'push sends without a workflow started'))
      .catch((err) => deps.logger.warn({ err }, 'push send recovery failed; next round in 30 s'));
  }, EVERY_MS);
  return async () => {
    clearInterval(timer);
    await running;
  };
}

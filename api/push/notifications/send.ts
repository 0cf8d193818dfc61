// A direct send (POST /notifications/send): the accepted devices, the send and its
// notification rows in one transaction, then the workflow that pushes them. Nothing is
// sent in the request.
import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy } from '@temporalio/common';
import { bindIdempotencyResource } from '../../../db/repositories/idempotency-keys';
import { createSend, deleteUnstartedSend, notificationIdsOf, sendableDevices } from '../../../db/repositories/push-sends';
import { PUSH_QUEUE, PUSH_SEND_WORKFLOW_TYPE, pushSendWorkflowId, type PushSendInput } from '../../../workflows/push-send/contract';
import type { AppDeps } from '../../deps';
import { errors } from '../../kit/errors';
import { isDependencyDown } from '../../kit/dependency-errors';
import type { IdempotencyState } from '../../kit/idempotency';
import type { SendNotificationBody } from './schema';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** How long the API waits for Temporal to accept the start before it answers 503. */
const START_DEADLINE_MS = 5000;

export interface SendResult {
  notificationIds: string[];
  queued: number;
  rejected: number;
}

/**
 * The accepted deviceIds, in request order: the app's active devices, each once (a
 * repeated id is rejected, so no device gets the message twice). Anything else is rejected.
 */
export async function acceptedDevices(deps: AppDeps, appId: string, deviceIds: string[]) {
  const candidates = [...new Set(deviceIds.filter((id) => UUID.test(id)).map((id) => id.toLowerCase()))];
  const sendable = await sendableDevices(deps.db, appId, candidates);
  const seen = new Set<string>();
  const accepted: { id: string; platform: 'Android' | 'iOS' }[] = [];
  for (const raw of deviceIds) {
    const id = raw.toLowerCase();
    const platform = sendable.get(id);
    if (!platform || seen.has(id)) continue;
    seen.add(id);
    accepted.push({ id, platform });
  }
  return accepted;
}

/**
 * Under an Idempotency-Key the send's id is written on the key in the transaction that
 * creates it, so a retry after a lost answer (the request died, or PostgreSQL went away
 * before the answer was stored, and the key's lease lapsed) answers the same
 * notificationIds instead of queuing a second send to the same devices (contracts.md,
 * "Idempotency": it finds what the first attempt made and replays it, or makes it once).
 */
export async function sendNotification(deps: AppDeps, appId: string, body: SendNotificationBody, idem?: IdempotencyState): Promise<SendResult> {
  if (idem?.resourceId) {
    const earlier = await notificationIdsOf(deps.db, idem.resourceId);
    if (earlier) {
      // the first attempt may have died before its start: start it now (once, REJECT_DUPLICATE)
      await startSendWorkflow(deps, idem.resourceId);
      return { notificationIds: earlier, queued: earlier.length, rejected: body.deviceIds.length - earlier.length };
    }
    // its send was removed again (its start failed): make it now, once
  }
  const devices = await acceptedDevices(deps, appId, body.deviceIds);
  const rejected = body.deviceIds.length - devices.length;
  // nothing to send: no send, no workflow
  if (!devices.length) return { notificationIds: [], queued: 0, rejected };
  const { sendId, notificationIds } = await deps.db.transaction(async (m) => {
    const created = await createSend(m, { appId, title: body.title, body: body.body, deepLink: body.deepLink ?? null, customData: body.customData ?? {} }, devices);
    if (idem && !(await bindIdempotencyResource(m, idem.scope, idem.key, idem.token, created.sendId))) throw new LeaseLost();
    return created;
  }).catch((err) => {
    // a retry took the key over while this request waited: it answers, this one must not send
    if (err instanceof LeaseLost) throw errors.conflict('idempotency_request_in_progress', 'A request with this Idempotency-Key is still in progress');
    throw err;
  });
  await startSendWorkflow(deps, sendId);
  return { notificationIds, queued: notificationIds.length, rejected };
}

/** Starts `push-send/<sendId>` (already started is fine); unreachable: the send's rows go again and 503. */
async function startSendWorkflow(deps: AppDeps, sendId: string): Promise<void> {
  const input: PushSendInput = { sendId };
  try {
    await deps.temporal.withDeadline(Date.now() + START_DEADLINE_MS, () =>
      deps.temporal.workflow.start(PUSH_SEND_WORKFLOW_TYPE, {
        taskQueue: PUSH_QUEUE,
        workflowId: pushSendWorkflowId(sendId),
        args: [input],
        workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      }),
    );
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return;
    // The rows go again, so a 503 leaves nothing behind that could still be sent. Had the
    // start reached Temporal after all, its workflow finds no send and ends without a push.
    deps.logger.warn({ err, sendId }, 'push send could not be started');
    await deleteUnstartedSend(deps.db, sendId).catch((e) => deps.logger.error({ err: e, sendId }, 'unstarted send not removed'));
    // Temporal down (the kit's one classifier): 503 with this message; anything else stays a 500
    if (isDependencyDown(err)) throw errors.unavailable('The send could not be queued; nothing was stored, retry later');
    throw err;
  }
}

/** This request's lease on its Idempotency-Key lapsed and a retry took the key over. */
class LeaseLost extends Error {}

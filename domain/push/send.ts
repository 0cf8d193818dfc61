// A direct send (POST /notifications/send): the accepted devices, then the send, its
// notification rows and its workflow's entry in the workflow-start outbox in one
// transaction. Nothing is pushed here and Temporal is not called: the push worker's start
// dispatcher starts the send's workflow from the outbox (workers/workflow-start-
// dispatcher.ts), so a committed send always gets its workflow, once, even when Temporal
// is down at the time of the request.
import type { Db, Executor } from '../../db/db';
import { bindIdempotencyResource } from '../../db/repositories/idempotency-keys';
import { insertSend, notificationIdsOf, sendableDevices } from '../../db/repositories/push-sends';
import { enqueueWorkflowStart, type OutboxStart } from '../../db/repositories/workflow-starts';
import { idempotencyRequestInProgress } from './errors';
import { acceptDevices, candidateDeviceIds, type SendDevice } from './send.rules';

export interface SendRequest {
  appId: string;
  title: string;
  body: string;
  deepLink: string | null;
  customData: Record<string, unknown>;
  /** as the client gave them: unknown, foreign or repeated ids are rejected */
  deviceIds: string[];
}

export interface SendResult {
  /** null: no device was accepted, nothing was stored */
  sendId: string | null;
  /** one per accepted device, in request order */
  notificationIds: string[];
  queued: number;
  rejected: number;
}

/** The Idempotency-Key the request runs under: its lease, and what an earlier attempt created. */
export interface SendIdempotency {
  scope: string;
  key: string;
  token: string;
  resourceId: string | null;
}

export interface SendOptions {
  /** the send's workflow, as the outbox is to start it */
  workflowOf(sendId: string): OutboxStart;
  idempotency?: SendIdempotency;
}

/** The accepted devices of `deviceIds`, in request order (send.rules.ts). */
export async function acceptedDevices(executor: Executor, appId: string, deviceIds: string[]): Promise<SendDevice[]> {
  return acceptDevices(deviceIds, await sendableDevices(executor, appId, candidateDeviceIds(deviceIds)));
}

/**
 * Under an Idempotency-Key the send's id is written on the key in the transaction that
 * creates it, so a retry after a lost answer (the request died, or PostgreSQL went away
 * before the answer was stored, and the key's lease lapsed) answers the same
 * notificationIds instead of queuing a second send to the same devices (docs/push.md,
 * "Idempotency"). That send's workflow needs nothing from the retry: its outbox entry
 * committed with it.
 */
export async function createSend(db: Db, request: SendRequest, opts: SendOptions): Promise<SendResult> {
  const idem = opts.idempotency;
  if (idem?.resourceId) {
    const earlier = await notificationIdsOf(db, idem.resourceId);
    if (earlier) return { sendId: idem.resourceId, notificationIds: earlier, queued: earlier.length, rejected: request.deviceIds.length - earlier.length };
    // no such send (gone with its app): the request is taken as new
  }
  const devices = await acceptedDevices(db, request.appId, request.deviceIds);
  const rejected = request.deviceIds.length - devices.length;
  // nothing to send: no send, no workflow
  if (!devices.length) return { sendId: null, notificationIds: [], queued: 0, rejected };
  const { appId, title, body, deepLink, customData } = request;
  const { sendId, notificationIds } = await db.transaction(async (m) => {
    const created = await insertSend(m, { appId, title, body, deepLink, customData }, devices);
    await enqueueWorkflowStart(m, opts.workflowOf(created.sendId));
    // a retry took the key over while this request waited: it answers, this one must not send
    if (idem && !(await bindIdempotencyResource(m, idem.scope, idem.key, idem.token, created.sendId))) {
      throw idempotencyRequestInProgress();
    }
    return created;
  });
  return { sendId, notificationIds, queued: notificationIds.length, rejected };
}

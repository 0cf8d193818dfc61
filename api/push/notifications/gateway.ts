// The layer between the notification routes and the domain: a direct send is
// domain/push/send.ts's createSend with the send's workflow, `push-send/<sendId>` on the
// `push` queue, as its outbox entry. The answer does not wait for Temporal: the push
// worker's start dispatcher starts the workflow once the send has committed.
import { createSend } from '../../../domain/push/send';
import type { OutboxStart } from '../../../db/repositories/workflow-starts';
import { PUSH_QUEUE, PUSH_SEND_WORKFLOW_TYPE, pushSendWorkflowId, type PushSendInput } from '../../../workflows/push-send/contract';
import type { AppDeps } from '../../deps';
import type { IdempotencyState } from '../../kit/idempotency';
import type { SendNotificationBody } from './schema';

export interface SendAnswer {
  notificationIds: string[];
  queued: number;
  rejected: number;
}

export async function sendNotification(deps: AppDeps, appId: string, body: SendNotificationBody, idem?: IdempotencyState): Promise<SendAnswer> {
  const { notificationIds, queued, rejected } = await createSend(
    deps.db,
    { appId, title: body.title, body: body.body, deepLink: body.deepLink ?? null, customData: body.customData ?? {}, deviceIds: body.deviceIds },
    { workflowOf: pushSendStart, idempotency: idem },
  );
  return { notificationIds, queued, rejected };
}

/** A send's entry in the workflow-start outbox: `push-send/<sendId>` with the send's id only. */
export function pushSendStart(sendId: string): OutboxStart {
  const input: PushSendInput = { sendId };
  return { workflowId: pushSendWorkflowId(sendId), workflowType: PUSH_SEND_WORKFLOW_TYPE, taskQueue: PUSH_QUEUE, args: [input] };
}

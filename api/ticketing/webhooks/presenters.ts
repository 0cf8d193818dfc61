import type { WebhookAttempt as AttemptRow } from '../../../db/entities';
import type { DeliveryRow } from './deliveries';
import type { EndpointRecord } from '../../../db/repositories/webhook-endpoints';
import type { WebhookAttempt, WebhookDelivery, WebhookEndpoint, WebhookEventType } from './schema';
import { iso, isoOrNull } from '../../kit/dates';

/** The Webhook endpoint object of the ticketing spec, without `secret` (shown only on create). */
export function presentEndpoint(row: EndpointRecord): WebhookEndpoint {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    url: row.url,
    events: row.events as WebhookEventType[],
    description: row.description,
    active: row.active,
    testMode: row.testMode,
    createdAt: iso(row.createdAt),
    updatedAt: iso(row.updatedAt),
  };
}

export function presentAttempt(a: AttemptRow): WebhookAttempt {
  return {
    attempt: a.attempt,
    scheduledAt: iso(a.scheduledAt),
    startedAt: iso(a.startedAt),
    statusCode: a.statusCode,
    latencyMs: a.latencyMs,
    error: a.error,
  };
}

/** One entry of the delivery log: the envelope exactly as sent, and every attempt. */
export function presentDelivery(row: DeliveryRow, attempts: AttemptRow[]): WebhookDelivery {
  return {
    id: row.id,
    event: row.event_type as WebhookEventType,
    status: row.status,
    attempts: row.attempts,
    test: row.synthetic,
    createdAt: iso(row.created_at),
    completedAt: isoOrNull(row.completed_at),
    // The body is the envelope we built with JSON.stringify, so it always parses.
    payload: JSON.parse(row.body),
    attemptLog: attempts.map(presentAttempt),
  };
}

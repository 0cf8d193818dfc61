// Platform webhook endpoints and their delivery log as the platform API shows them:
// snake_case, timestamps through api/kit/dates.ts, never a secret (the create's and the
// rotation's answers add theirs in the route).
import type { WebhookAttempt as AttemptRow } from '../../../db/entities';
import type { DeliveryRow } from '../../../db/repositories/webhook-delivery-log';
import type { EndpointRecord } from '../../../db/repositories/webhook-endpoints';
import type { PlatformEventType } from '../../../domain/platform/webhook-events';
import { iso, isoOrNull } from '../../kit/dates';
import type { Webhook, WebhookAttempt, WebhookDelivery } from './schema';

export function presentWebhook(row: EndpointRecord): Webhook {
  return {
    id: row.id,
    workspace_id: row.workspaceId,
    environment: row.environment ?? 'live',
    url: row.url,
    events: row.events as PlatformEventType[],
    description: row.description,
    active: row.active,
    paused_reason: row.active ? null : ((row.pausedReason ?? 'manual') as Webhook['paused_reason']),
    paused_at: row.active ? null : isoOrNull(row.pausedAt),
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

export function presentAttempt(a: AttemptRow): WebhookAttempt {
  return {
    attempt: a.attempt,
    scheduled_at: iso(a.scheduledAt),
    started_at: iso(a.startedAt),
    status_code: a.statusCode,
    latency_ms: a.latencyMs,
    error: a.error,
  };
}

/** One entry of the delivery log: the envelope exactly as sent, and every attempt. */
export function presentDelivery(row: DeliveryRow, attempts: AttemptRow[]): WebhookDelivery {
  return {
    id: row.id,
    event: row.event_type as PlatformEventType,
    status: row.status,
    attempts: row.attempts,
    created_at: iso(row.created_at),
    completed_at: isoOrNull(row.completed_at),
    // the body is the envelope we built with JSON.stringify, so it always parses
    payload: JSON.parse(row.body),
    attempt_log: attempts.map(presentAttempt),
  };
}

import type http from 'node:http';
import type https from 'node:https';
import type { Db } from '../../db/db';
import type { WebhookActivities } from '../../workflows/webhook-delivery/contract';
import { classifyOutcome, RECEIVER_TIMEOUT_MS } from '../../workflows/webhook-delivery/retry-schedule.logic';
import { postOnce } from './post';
import { safeAgentFor } from './safe-agent';
import { decryptSecret } from './secret-box';
import { deliveryHeaders } from './signing';

export interface WebhookActivityDeps {
  db: Db;
  /** the key that opens endpoint secrets (config) */
  secretKey: Buffer;
  /** SSRF-safe agents (activities/webhooks/safe-agent.ts) */
  agents: { http: http.Agent; https: https.Agent };
  receiverTimeoutMs?: number;
}

/** The delivery activities over their dependencies (design principle 3). */
export function createWebhookActivities(deps: WebhookActivityDeps): WebhookActivities {
  const timeoutMs = deps.receiverTimeoutMs ?? RECEIVER_TIMEOUT_MS;
  return {
    async attemptDelivery({ deliveryId, attempt, scheduledAt }) {
      const { rows } = await deps.db.query(
        `SELECT d.body, d.endpoint_id, e.url, e.active, e.deleted_at, e.secret_box,
                a.started_at AS recorded_at, a.error AS recorded_error
           FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
           LEFT JOIN webhook_attempts a ON a.delivery_id = d.id AND a.attempt = $2
          WHERE d.id = $1`,
        [deliveryId, attempt],
      );
      const d = rows[0];
      // This attempt already happened and is recorded: the worker died before the workflow
      // task reported it (a local activity's result is durable only then, and a slower
      // delivery of the same event can hold that task open for seconds). The recorded
      // outcome is the answer; only an attempt whose POST was not yet recorded is repeated.
      if (d?.recorded_at) {
        await deps.db.query('UPDATE webhook_deliveries SET attempts = GREATEST(attempts, $2) WHERE id = $1', [deliveryId, attempt]);
        return d.recorded_error === null ? 'succeeded' : 'failed';
      }
      if (!d || d.deleted_at || !d.active) return 'skipped'; // paused or deleted: nothing more is sent
      const secret = decryptSecret(deps.secretKey, d.secret_box, d.endpoint_id);
      const startedAt = new Date();
      const headers = deliveryHeaders({ id: deliveryId, timestampSeconds: Math.floor(startedAt.getTime() / 1000), body: d.body, secret });
      const result = await postOnce(d.url, d.body, headers, safeAgentFor(d.url, deps.agents), timeoutMs);
      const outcome = classifyOutcome(result);
      // A retry that gets here found no row: the POST above is the attempt's only record.
      await deps.db.query(
        `INSERT INTO webhook_attempts (delivery_id, attempt, scheduled_at, started_at, status_code, latency_ms, error)
         VALUES ($1, $2, $3, $4, $5, $6, $7)
         ON CONFLICT (delivery_id, attempt) DO UPDATE SET started_at = $4, status_code = $5, latency_ms = $6, error = $7`,
        [deliveryId, attempt, scheduledAt, startedAt, result.status ?? null, Date.now() - startedAt.getTime(), outcome.ok ? null : outcome.detail],
      );
      await deps.db.query('UPDATE webhook_deliveries SET attempts = GREATEST(attempts, $2) WHERE id = $1', [deliveryId, attempt]);
      return outcome.ok ? 'succeeded' : 'failed';
    },
    async finishDelivery({ deliveryId, status, at }) {
      await deps.db.query('UPDATE webhook_deliveries SET status = $2, completed_at = $3 WHERE id = $1', [deliveryId, status, at]);
    },
  };
}

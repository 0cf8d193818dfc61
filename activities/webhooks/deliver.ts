import type http from 'node:http';
import type https from 'node:https';
import type { Db } from '../../db/db';
import type { DeliveryResult, WebhookActivities } from '../../workflows/webhook-delivery/contract';
import { classifyOutcome, RECEIVER_TIMEOUT_MS, type AttemptResult } from '../../workflows/webhook-delivery/retry-schedule.logic';
import { postOnce } from './post';
import { safeAgentFor } from './safe-agent';
import { decryptSecret, SecretBoxError } from './secret-box';
import { deliveryHeaders } from './signing';

export interface WebhookActivityDeps {
  db: Db;
  /** the key that opens endpoint secrets (config) */
  secretKey: Buffer;
  /** SSRF-safe agents (activities/webhooks/safe-agent.ts) */
  agents: { http: http.Agent; https: https.Agent };
  receiverTimeoutMs?: number;
}

/**
 * The delivery row after an attempt: $1 id, $2 attempts made (the counter only grows),
 * $3 whether the outcome ends the delivery, $4 the outcome, written as its final status.
 */
const SETTLE = `UPDATE webhook_deliveries
     SET attempts = GREATEST(attempts, $2::int),
         status = CASE WHEN $3::boolean THEN $4::text ELSE status END,
         completed_at = CASE WHEN $3::boolean THEN now() ELSE completed_at END
   WHERE id = $1`;

/** The delivery activities over their dependencies (design principle 3). */
export function createWebhookActivities(deps: WebhookActivityDeps): WebhookActivities {
  const timeoutMs = deps.receiverTimeoutMs ?? RECEIVER_TIMEOUT_MS;
  return {
    async attemptDelivery({ deliveryId, attempt, scheduledAt, last }) {
      const { rows } = await deps.db.query(
        `SELECT d.body, d.endpoint_id, e.url, e.active, e.deleted_at, e.secret_box,
                a.started_at AS recorded_at, a.error AS recorded_error
           FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
           LEFT JOIN webhook_attempts a ON a.delivery_id = d.id AND a.attempt = $2
          WHERE d.id = $1`,
        [deliveryId, attempt],
      );
      const d = rows[0];
      if (!d) return 'skipped'; // purged from the log (a redelivery older than 7 days): nothing to send
      /** whether `outcome` ends the delivery, so the row gets its final status */
      const ends = (outcome: DeliveryResult) => outcome !== 'failed' || last;

      // This attempt already happened and is recorded: the worker died before the workflow
      // task reported it (a local activity's result is durable only then, and a slower
      // delivery in the same batch can hold that task open for seconds). The recorded
      // outcome is the answer; only an attempt whose POST was not yet recorded is repeated.
      if (d.recorded_at) {
        const outcome: DeliveryResult = d.recorded_error === null ? 'succeeded' : 'failed';
        await deps.db.query(SETTLE, [deliveryId, attempt, ends(outcome), outcome]);
        return outcome;
      }
      if (d.deleted_at || !d.active) {
        await deps.db.query(SETTLE, [deliveryId, 0, true, 'skipped']); // paused or deleted: nothing more is sent
        return 'skipped';
      }
      const startedAt = new Date();
      const secret = openSecret(deps.secretKey, d.secret_box, d.endpoint_id);
      // An unreadable secret (WEBHOOK_SECRET_KEY changed) fails the attempt without sending:
      // retrying the activity could not help, and an unsigned POST must never go out.
      const result: AttemptResult =
        secret === null
          ? { error: 'the endpoint secret cannot be decrypted with the configured WEBHOOK_SECRET_KEY; nothing was sent' }
          : await postOnce(
              d.url,
              d.body,
              deliveryHeaders({ id: deliveryId, timestampSeconds: Math.floor(startedAt.getTime() / 1000), body: d.body, secret }),
              safeAgentFor(d.url, deps.agents),
              timeoutMs,
            );
      const classified = classifyOutcome(result);
      const outcome: DeliveryResult = classified.ok ? 'succeeded' : 'failed';
      // The attempt and the row in one statement. A retry that gets here found no attempt
      // row: the POST above is this attempt's only record.
      await deps.db.query(
        `WITH attempt AS (
           INSERT INTO webhook_attempts (delivery_id, attempt, scheduled_at, started_at, status_code, latency_ms, error)
           VALUES ($1, $2, $5, $6, $7, $8, $9)
           ON CONFLICT (delivery_id, attempt) DO UPDATE SET started_at = $6, status_code = $7, latency_ms = $8, error = $9
         ) ${SETTLE}`,
        [
          deliveryId,
          attempt,
          ends(outcome),
          outcome,
          scheduledAt,
          startedAt,
          result.status ?? null,
          Date.now() - startedAt.getTime(),
          classified.ok ? null : classified.detail,
        ],
      );
      return outcome;
    },
  };
}

function openSecret(key: Buffer, box: string, endpointId: string): string | null {
  try {
    return decryptSecret(key, box, endpointId);
  } catch (err) {
    if (err instanceof SecretBoxError) return null;
    throw err;
  }
}

import type http from 'node:http';
import type https from 'node:https';
import type { Db } from '../../db/db';
import { deliveriesToAttempt, deliveryToAttempt, recordAttempt, settleDelivery, type DeliveryToAttempt } from '../../db/repositories/webhook-deliveries';
import type { DeliveryResult, WebhookActivities } from '../../workflows/webhook-delivery/contract';
import { classifyOutcome, RECEIVER_TIMEOUT_MS, ROUND_CONCURRENCY } from '../../domain/webhooks/retry.rules';
import type { AttemptResult } from '../../domain/webhooks/types';
import { withDomainFailures } from '../failures';
import { mapLimited } from '../../lib/map-limited';
import { postOnce } from './post';
import { safeAgentFor } from '../../lib/webhooks/safe-agent';
import { decryptSecret, SecretBoxError } from '../../lib/crypto/secret-box';
import { deliveryHeaders } from '../../lib/webhooks/signing';
import { webhookApi, type WebhookApis } from '../../domain/webhooks/apis';

export interface WebhookActivityDeps {
  db: Db;
  /** the master key (lib/crypto/master-key.ts), which opens endpoint secrets */
  secretKey: Buffer;
  /** SSRF-safe agents (lib/webhooks/safe-agent.ts) */
  agents: { http: http.Agent; https: https.Agent };
  receiverTimeoutMs?: number;
  /** the webhook APIs, whose signature headers each endpoint's attempts carry (default WEBHOOK_APIS) */
  apis?: WebhookApis;
  /** the clock that says whether a rotation's 24 h have passed (default the system's); tests stand at the boundary */
  clock?: () => Date;
}

/**
 * The delivery activities over their dependencies. The receiver's answer, an unreadable
 * secret or a purged delivery are results, not errors: what throws is our side failing,
 * retried by the workflow's policy.
 */
export function createWebhookActivities(deps: WebhookActivityDeps): WebhookActivities {
  const timeoutMs = deps.receiverTimeoutMs ?? RECEIVER_TIMEOUT_MS;
  type AttemptInput = Parameters<WebhookActivities['attemptDelivery']>[0];
  /** One attempt of the delivery whose row (with its endpoint and any recorded attempt) is `d`. */
  const attemptRead = async (d: DeliveryToAttempt | null, { deliveryId, attempt, scheduledAt, last }: AttemptInput): Promise<DeliveryResult> => {
    if (!d) return 'skipped'; // purged from the log (a redelivery older than 7 days): nothing to send
    /** whether `outcome` ends the delivery, so the row gets its final status */
    const ends = (outcome: DeliveryResult) => outcome !== 'failed' || last;

    // This attempt already happened and is recorded: the worker died before the workflow
    // task reported it (a local activity's result is durable only then, and a slower
    // delivery in the same batch can hold that task open for seconds). The recorded
    // outcome is the answer; only an attempt whose POST was not yet recorded is repeated.
    if (d.recorded_at) {
      const outcome: DeliveryResult = d.recorded_error === null ? 'succeeded' : 'failed';
      await settleDelivery(deps.db, deliveryId, { attempts: attempt, ends: ends(outcome), outcome });
      return outcome;
    }
    if (d.deleted_at || !d.active || d.withheld) {
      // paused, deleted, or a real event to an endpoint in test mode: nothing more is sent
      await settleDelivery(deps.db, deliveryId, { attempts: 0, ends: true, outcome: 'skipped' });
      return 'skipped';
    }
    const startedAt = new Date();
    const secret = openSecret(deps.secretKey, d.secret_box, d.endpoint_id);
    const previousSecret = previousSecretOf(deps, d);
    // An unreadable secret (WEBHOOK_SECRET_KEY changed) fails the attempt without sending:
    // retrying the activity could not help, and an unsigned POST must never go out.
    const result: AttemptResult =
      secret === null
        ? { error: 'the endpoint secret cannot be decrypted with the configured WEBHOOK_SECRET_KEY; nothing was sent' }
        : await postOnce(
            d.url,
            d.body,
            deliveryHeaders(
              { id: deliveryId, timestampSeconds: Math.floor(startedAt.getTime() / 1000), body: d.body, secret, previousSecret },
              webhookApi(d.api, deps.apis).signatures,
            ),
            safeAgentFor(d.url, deps.agents),
            timeoutMs,
          );
    const classified = classifyOutcome(result);
    const outcome: DeliveryResult = classified.ok ? 'succeeded' : 'failed';
    // The attempt and the row in one statement. A retry that gets here found no attempt
    // row: the POST above is this attempt's only record.
    await recordAttempt(deps.db, {
      deliveryId,
      attempt,
      ends: ends(outcome),
      outcome,
      scheduledAt,
      startedAt,
      statusCode: result.status ?? null,
      latencyMs: Date.now() - startedAt.getTime(),
      error: classified.ok ? null : classified.detail,
    });
    return outcome;
  };
  const attemptDelivery: WebhookActivities['attemptDelivery'] = async (input) => attemptRead(await deliveryToAttempt(deps.db, input.deliveryId, input.attempt), input);
  return withDomainFailures<WebhookActivities>({
    attemptDelivery,
    // A round's attempts side by side, at most ROUND_CONCURRENCY POSTs at once. Every one
    // runs to its end before a failure of ours is thrown: those recorded are answered from
    // their record when the activity is retried (docs/webhooks.md, "Workflow shape").
    // The rows are read a wave (ROUND_CONCURRENCY deliveries) at a time, in one statement
    // each, when the wave's first attempt starts: a pause or a deletion is seen as promptly as
    // when each delivery read its own row, without a query per delivery.
    async attemptDeliveries({ deliveryIds, attempt, scheduledAt, last }) {
      const waves = new Map<number, Promise<Map<string, DeliveryToAttempt>>>();
      const rowOf = (i: number) => {
        const w = Math.floor(i / ROUND_CONCURRENCY);
        if (!waves.has(w)) waves.set(w, deliveriesToAttempt(deps.db, deliveryIds.slice(w * ROUND_CONCURRENCY, (w + 1) * ROUND_CONCURRENCY), attempt));
        return waves.get(w)!.then((rows) => rows.get(deliveryIds[i]) ?? null);
      };
      const settled = await mapLimited(deliveryIds.map((deliveryId, i) => ({ deliveryId, i })), ROUND_CONCURRENCY, ({ deliveryId, i }) =>
        rowOf(i).then((d) => attemptRead(d, { deliveryId, attempt, scheduledAt, last })).then(
          (value): PromiseSettledResult<DeliveryResult> => ({ status: 'fulfilled', value }),
          (reason): PromiseSettledResult<DeliveryResult> => ({ status: 'rejected', reason }),
        ),
      );
      const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
      if (failed) throw failed.reason;
      return settled.map((r) => (r as PromiseFulfilledResult<DeliveryResult>).value);
    },
  });
}

/**
 * The secret a rotation replaced while its 24 h last (docs/webhooks.md, "Secret rotation"),
 * else null. One that cannot be opened is left out: the new secret's signature still goes.
 */
function previousSecretOf(
  deps: Pick<WebhookActivityDeps, 'secretKey' | 'clock'>,
  d: { previous_secret_box: string | null; previous_secret_expires_at: Date | null; endpoint_id: string },
): string | null {
  if (d.previous_secret_box === null || d.previous_secret_expires_at === null) return null;
  const now = (deps.clock ?? (() => new Date()))();
  if (now.getTime() >= new Date(d.previous_secret_expires_at).getTime()) return null;
  return openSecret(deps.secretKey, d.previous_secret_box, d.endpoint_id);
}

function openSecret(key: Buffer, box: string, endpointId: string): string | null {
  try {
    return decryptSecret(key, box, endpointId);
  } catch (err) {
    if (err instanceof SecretBoxError) return null;
    throw err;
  }
}

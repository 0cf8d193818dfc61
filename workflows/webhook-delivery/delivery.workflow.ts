import { ApplicationFailure, continueAsNew, proxyActivities, proxyLocalActivities, sleep } from '@temporalio/workflow';
import type {
  BatchTally,
  DeliveryResult,
  RetrySchedule,
  WebhookActivities,
  WebhookBatchInput,
  WebhookDeliveryInput,
  WebhookExhaustedActivities,
} from './contract';
import { attemptTimes, checkSchedule, RECEIVER_TIMEOUT_MS } from '../../domain/webhooks/retry.rules';
import { SCHEDULE_BEFORE_INPUTS } from './retry-schedule.logic';

// Attempts run as local activities: the POST happens inside the workflow task, so a batch
// whose deliveries all succeed first time is one workflow task, with no activity-task
// round trips through the server (docs/webhooks.md, "Workflow shape"). Their own retries
// cover only our side failing (the database, the worker dying mid-way); the receiver's
// answer is a result, not an error.
const acts = proxyLocalActivities<WebhookActivities>({
  startToCloseTimeout: RECEIVER_TIMEOUT_MS + 15_000,
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute' },
});

// Pausing an endpoint sends an email: a regular activity, retried until the SMTP server
// has taken it (the pause commits only then, so a retry neither loses nor repeats it).
const onExhausted = proxyActivities<WebhookExhaustedActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '10 seconds', backoffCoefficient: 2, maximumInterval: '15 minutes' },
});

function scheduleOf(input: { schedule?: RetrySchedule }): RetrySchedule {
  const schedule = input.schedule ?? { delaysMs: [...SCHEDULE_BEFORE_INPUTS] };
  try {
    checkSchedule(schedule.delaysMs);
  } catch (err) {
    throw ApplicationFailure.nonRetryable((err as Error).message, 'InvalidRetrySchedule');
  }
  return schedule;
}

async function waitUntil(at: number): Promise<void> {
  if (at > Date.now()) await sleep(at - Date.now());
}

/**
 * One delivery, attempt after attempt, on `schedule`: success stops it, a paused or deleted
 * endpoint skips the rest, the failure of its last attempt makes it permanently failed.
 */
async function deliverOne(deliveryId: string, schedule: RetrySchedule, previousAttempts: number, attempts: number): Promise<DeliveryResult> {
  const times = attemptTimes(Date.now(), schedule.delaysMs).slice(0, attempts);
  for (const [i, at] of times.entries()) {
    await waitUntil(at);
    const last = i === times.length - 1;
    const outcome = await acts.attemptDelivery({ deliveryId, attempt: previousAttempts + i + 1, scheduledAt: new Date(at).toISOString(), last });
    if (outcome !== 'failed') return outcome;
  }
  return 'failed';
}

function tallyOf(outcomes: DeliveryResult[], counted: BatchTally = { succeeded: 0, failed: 0, skipped: 0 }): BatchTally {
  const t = { ...counted };
  for (const o of outcomes) t[o] += 1;
  return t;
}

/**
 * Every delivery of one dispatch batch, in rounds: all first attempts side by side at once,
 * then one timer to the next attempt's planned time for the ones that failed, and so on.
 * Every delivery of a batch starts together, so its attempt n is planned at the same time
 * as the others'. After a round with failures the batch continues as new with only the
 * failing ids: one run's history is about one event per delivery, whatever the batch size
 * (docs/webhooks.md, "Batch size and history").
 */
export async function webhookBatchWorkflow(input: WebhookBatchInput): Promise<BatchTally> {
  const schedule = scheduleOf(input);
  if (!input.schedule) {
    // Started before rounds (and before the schedule was an input: every start since
    // passes one, and so does continue-as-new): one coroutine per delivery, as it ran.
    // The input tells the two apart, so no patch marker is needed in every new batch.
    const outcomes = await Promise.all(input.deliveryIds.map((id) => deliverOne(id, schedule, 0, schedule.delaysMs.length)));
    return tallyOf(outcomes);
  }
  const round = input.round ?? { attempt: 1, firstAttemptAt: Date.now(), tally: { succeeded: 0, failed: 0, skipped: 0 } };
  const times = attemptTimes(round.firstAttemptAt, schedule.delaysMs);
  const at = times[round.attempt - 1];
  await waitUntil(at);
  const last = round.attempt === times.length;
  const scheduledAt = new Date(at).toISOString();
  const outcomes = await Promise.all(
    input.deliveryIds.map((deliveryId) => acts.attemptDelivery({ deliveryId, attempt: round.attempt, scheduledAt, last })),
  );
  const failing = input.deliveryIds.filter((_, i) => outcomes[i] === 'failed');
  const tally = tallyOf(outcomes.filter((o) => o !== 'failed'), round.tally);
  if (failing.length && !last) {
    return continueAsNew<typeof webhookBatchWorkflow>({
      ...input,
      schedule,
      deliveryIds: failing,
      round: { attempt: round.attempt + 1, firstAttemptAt: round.firstAttemptAt, tally },
    });
  }
  if (failing.length && schedule.onExhausted === 'pause-endpoint') await onExhausted.pauseExhaustedEndpoints({ deliveryIds: failing });
  return { ...tally, failed: tally.failed + failing.length };
}

/**
 * One delivery on its own: a redelivery (the whole schedule again, numbered after the
 * attempts already made) or a test send (mode 'once': one attempt, nothing after it).
 */
export async function webhookDeliveryWorkflow(input: WebhookDeliveryInput): Promise<DeliveryResult> {
  const schedule = scheduleOf(input);
  const once = input.mode === 'once';
  const outcome = await deliverOne(input.deliveryId, schedule, input.previousAttempts ?? 0, once ? 1 : schedule.delaysMs.length);
  if (outcome === 'failed' && !once && schedule.onExhausted === 'pause-endpoint') {
    await onExhausted.pauseExhaustedEndpoints({ deliveryIds: [input.deliveryId] });
  }
  return outcome;
}

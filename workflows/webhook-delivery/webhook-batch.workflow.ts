import { continueAsNew } from '@temporalio/workflow';
import { attemptTimes } from '../../domain/webhooks/retry.rules';
import { acts, attemptRound, deliverOne, onExhausted, scheduleOf, waitUntil } from './attempts';
import type { BatchTally, RetrySchedule, WebhookBatchInput } from './contract';
import { tallyOf } from './delivery.logic';

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
  if (!input.schedule) return batchBeforeRounds(input.deliveryIds, schedule);
  const round = input.round ?? { attempt: 1, firstAttemptAt: Date.now(), tally: { succeeded: 0, failed: 0, skipped: 0 } };
  const times = attemptTimes(round.firstAttemptAt, schedule.delaysMs);
  const at = times[round.attempt - 1];
  await waitUntil(at);
  const last = round.attempt === times.length;
  const scheduledAt = new Date(at).toISOString();
  const outcomes = input.roundInOneActivity
    ? await attemptRound({ deliveryIds: input.deliveryIds, attempt: round.attempt, scheduledAt, last })
    : await Promise.all(input.deliveryIds.map((deliveryId) => acts.attemptDelivery({ deliveryId, attempt: round.attempt, scheduledAt, last })));
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
 * A batch started before rounds existed (and before the schedule was an input: every start
 * since passes one, and so does continue-as-new): one coroutine per delivery, as it ran.
 * The input tells the two apart, so new batches carry no patch marker; when this can go:
 * docs/webhooks.md, "Runs started before the schedule was an input".
 */
async function batchBeforeRounds(deliveryIds: string[], schedule: RetrySchedule): Promise<BatchTally> {
  const outcomes = await Promise.all(deliveryIds.map((id) => deliverOne(id, schedule, 0, schedule.delaysMs.length)));
  return tallyOf(outcomes);
}

import { continueAsNew, proxyActivities } from '@temporalio/workflow';
import type { PushSendActivities, PushSendInput, PushSendTotals } from './contract';
import { addPage, isLastPage, NO_TOTALS, PAGE_MAX_ATTEMPTS, PAGES_PER_RUN, PUSH_PAGE_SIZE } from './push-send.logic';

// A page pushes up to 500 devices and records each outcome before it returns, so a retry
// repeats only the devices still `queued` (docs/push.md, "Sending"). The activity retries
// transient failures itself (the transport's retryable outcomes, the database) under this
// policy; after its last attempt it records what is left as failed instead of throwing.
const acts = proxyActivities<PushSendActivities>({
  startToCloseTimeout: '2 minutes',
  // the activity heartbeats while the transport works: a dead worker's page is retried
  // elsewhere after this, not after the start-to-close timeout
  heartbeatTimeout: '10 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: PAGE_MAX_ATTEMPTS },
});

/**
 * `push-send/<sendId>`: pages the send's push_notifications by position, one activity per
 * page, and answers the counts. Continues as new every PAGES_PER_RUN pages.
 */
export async function pushSendWorkflow(input: PushSendInput): Promise<PushSendTotals> {
  let after = input.resume?.afterPosition ?? -1;
  let totals = input.resume?.totals ?? NO_TOTALS;
  for (let run = 0; run < PAGES_PER_RUN; run++) {
    const page = await acts.sendPushPage({ sendId: input.sendId, afterPosition: after, limit: PUSH_PAGE_SIZE });
    totals = addPage(totals, page);
    if (isLastPage(page)) {
      await acts.finishPushSend({ sendId: input.sendId });
      return totals;
    }
    after = page.lastPosition!;
  }
  return continueAsNew<typeof pushSendWorkflow>({ sendId: input.sendId, resume: { afterPosition: after, totals } });
}

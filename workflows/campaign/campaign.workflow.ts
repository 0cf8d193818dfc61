import { allHandlersFinished, condition, continueAsNew, proxyActivities, setHandler } from '@temporalio/workflow';
import { upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import { checkScheduledAt } from '../../domain/push/campaign.rules';
import { isDomainError } from '../../domain/errors';
import { refusal } from '../refusal';
import { cancelUpdate, campaignStateQuery, FINISHING, NOT_SCHEDULED, rescheduleUpdate } from './contract';
import type { CampaignActivities, CampaignInput, CampaignResult, CampaignStatus } from './contract';
import { addPage, NO_TOTALS, type CampaignState, PAGE_MAX_ATTEMPTS, PAGES_IN_FLIGHT, pageCount, pageInput, runEnd, WAIT_HISTORY_LIMIT } from './campaign.logic';

// The campaign's own steps: retried until the database answers (they are idempotent).
// The steps beat while they run (activities/push/campaign.ts): a step whose worker died is
// retried within the heartbeat timeout, not after the start-to-close time.
const steps = proxyActivities<CampaignActivities>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '10 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});
// The send's page activity, as the send workflow calls it (workflows/push-send): it records
// each device's outcome before it returns, so a retry never pushes a device twice.
const pages = proxyActivities<CampaignActivities>({
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: '10 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: PAGE_MAX_ATTEMPTS },
});

/**
 * A reschedule's new time, by the rule the API's create and schedule apply
 * (domain/push/campaign.rules.ts checkScheduledAt: ahead of now, at most 366 days), and
 * refused as they refuse it: 400 validation_error with the message on `scheduledAt`.
 */
function checkNewTime(at: string): void {
  try {
    checkScheduledAt(new Date(at), new Date(Date.now()));
  } catch (err) {
    if (!isDomainError(err)) throw err;
    throw refusal('invalid', err.code, err.message, { errors: { scheduledAt: [err.message] } });
  }
}

/**
 * `campaign/<campaignId>`: waits for a scheduled campaign's time on a durable timer (a
 * reschedule moves it, a cancel ends it), snapshots the audience, pushes it in pages of
 * 500 with PAGES_IN_FLIGHT pages at once, checks for a cancel between pages, continues
 * as new every PAGES_PER_RUN pages and marks the campaign Completed, Cancelled or Failed.
 * Its state table (docs/workflows.md, "The campaign workflow"):
 *
 * | phase              | accepts                                              | timers             |
 * |--------------------|------------------------------------------------------|--------------------|
 * | waiting            | reschedule (checkScheduledAt: ahead, ≤ 366 days), cancel | the scheduled time |
 * | starting, sending  | cancel (after the pages in flight)                   | —                  |
 * | finishing, done    | nothing: campaign_finished                           | —                  |
 */
export async function campaignWorkflow(input: CampaignInput): Promise<CampaignResult> {
  const { campaignId } = input;
  const s: CampaignState = {
    phase: input.resume ? 'sending' : input.scheduledAt ? 'waiting' : 'starting',
    scheduledAt: input.scheduledAt ? Date.parse(input.scheduledAt) : null,
    rescheduling: 0,
    cancelRequested: false,
    reply: null,
    totals: input.resume?.totals ?? NO_TOTALS,
  };
  const show = (status: CampaignStatus) => {
    if (input.searchAttributes) upsertSearchAttributes({ PushAppId: [input.appId], CampaignStatus: [status] });
  };

  setHandler(campaignStateQuery, () => ({ phase: s.phase, scheduledAt: s.scheduledAt === null ? null : new Date(s.scheduledAt).toISOString(), pagesDone: s.totals.pages }));
  setHandler(
    rescheduleUpdate,
    async ({ scheduledAt: at }) => {
      s.scheduledAt = Date.parse(at); // the wait below starts over with the new time
      s.rescheduling++;
      try {
        await steps.rescheduleCampaign({ campaignId, scheduledAt: at });
      } finally {
        s.rescheduling--;
      }
      return { status: 'Scheduled', sent: 0 };
    },
    {
      validator: ({ scheduledAt: at }) => {
        if (s.phase !== 'waiting' || s.cancelRequested) throw refusal('conflict', NOT_SCHEDULED, 'The campaign is no longer scheduled');
        checkNewTime(at);
      },
    },
  );
  setHandler(
    cancelUpdate,
    async () => {
      s.cancelRequested = true;
      await condition(() => s.reply !== null);
      return s.reply!;
    },
    {
      validator: () => {
        if (s.phase === 'finishing' || s.phase === 'done') throw refusal('conflict', FINISHING, 'The campaign has finished');
      },
    },
  );

  async function end(status: 'Completed' | 'Cancelled' | 'Failed', reason?: string): Promise<CampaignResult> {
    s.phase = 'finishing';
    const done = await steps.finishCampaign({ campaignId, status, reason });
    if (done.status) show(done.status);
    s.reply = { status: done.status ?? status, sent: done.sent };
    s.phase = 'done';
    await condition(allHandlersFinished);
    return { status: done.status ?? 'Gone', sent: done.sent, failed: s.totals.failed, pages: s.totals.pages };
  }

  // a scheduled campaign: its durable timer, moved by a reschedule
  while (s.phase === 'waiting' && !s.cancelRequested) {
    const target = s.scheduledAt!;
    const ms = target - Date.now();
    if (ms <= 0 && s.rescheduling === 0) break;
    if (workflowInfo().historyLength > WAIT_HISTORY_LIMIT && s.rescheduling === 0) {
      // many reschedules: the wait goes on in a fresh history
      return continueAsNew<typeof campaignWorkflow>({ ...input, scheduledAt: new Date(target).toISOString() });
    }
    const moved = () => s.cancelRequested || s.scheduledAt !== target;
    if (ms > 0) await condition(moved, ms);
    else await condition(() => moved() || s.rescheduling === 0); // the time has come: a reschedule in progress first
  }
  if (s.cancelRequested) return end('Cancelled');

  let sendId: string;
  let total: number;
  if (input.resume) {
    ({ sendId, total } = input.resume);
    show('Sending'); // set on every run: continue-as-new is not asked to carry them over
  } else {
    s.phase = 'starting';
    const begun = await steps.beginCampaignSend({ campaignId });
    if (begun.kind === 'gone') {
      // deleted with its app: a cancel waiting here gets its answer (the API then finds nothing: 404)
      [s.phase, s.reply] = ['done', { status: 'Cancelled', sent: 0 }];
      await condition(allHandlersFinished);
      return { status: 'Gone', sent: 0, failed: 0, pages: 0 };
    }
    if (begun.kind === 'finished') return end(begun.status === 'Failed' ? 'Failed' : 'Cancelled');
    ({ sendId, total } = begun);
    show('Sending');
  }
  s.phase = 'sending';

  // pages of this run, PAGES_IN_FLIGHT at once; a cancel stops new pages, those in flight finish
  const all = pageCount(total);
  const last = runEnd(input.resume?.nextPage ?? 0, all);
  let next = input.resume?.nextPage ?? 0;
  let running = 0;
  let failure: string | null = null;
  while (next < last && !s.cancelRequested && failure === null) {
    await condition(() => running < PAGES_IN_FLIGHT);
    if (s.cancelRequested || failure !== null) break;
    running++;
    pages.sendPushPage(pageInput(sendId, next++)).then(
      (page) => void (s.totals = addPage(s.totals, page)),
      (err: Error) => void (failure = `a page could not be sent: ${err.message}`),
    ).finally(() => running--);
  }
  await condition(() => running === 0);

  if (!s.cancelRequested && failure === null && last < all) {
    // a cancel arriving now waits for its answer: it is this run's to give, not the next one's
    await condition(() => s.cancelRequested || allHandlersFinished());
    if (!s.cancelRequested) return continueAsNew<typeof campaignWorkflow>({ ...input, scheduledAt: null, resume: { sendId, total, nextPage: last, totals: s.totals } });
  }
  if (s.cancelRequested) return end('Cancelled');
  if (failure !== null) return end('Failed', failure);
  return end('Completed');
}

// Pure decisions of the send workflow, shared with tests.
import type { PushPageResult, PushSendTotals } from './contract';

/** Rows per activity call: FCM's sendEach takes at most 500 messages per call. */
export const PUSH_PAGE_SIZE = 500;

/**
 * Pages per workflow run before it continues as new: about six events per page keep a
 * run's history near 1,200 events however many devices a (campaign) send reaches.
 */
export const PAGES_PER_RUN = 200;

/**
 * Attempts of one page activity. The activity retries transient transport failures by
 * throwing (the devices stay `queued`); on its last attempt it records them as failed
 * instead, so a send always ends and no device is silently skipped.
 */
export const PAGE_MAX_ATTEMPTS = 8;

export const NO_TOTALS: PushSendTotals = { sent: 0, failed: 0, pages: 0 };

export function addPage(totals: PushSendTotals, page: PushPageResult): PushSendTotals {
  return { sent: totals.sent + page.sent, failed: totals.failed + page.failed, pages: totals.pages + 1 };
}

/** The send is over after a page with nothing after it (a send of 1,000 takes two pages, not three). */
export function isLastPage(page: PushPageResult): boolean {
  return page.lastPosition === null || !page.more;
}

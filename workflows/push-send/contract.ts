// What callers know about a push send: its workflow id, input, queue and activity types.
// The API writes the push_sends row, one push_notifications row per device and the
// send's workflow-start outbox entry in one transaction; the push worker's start
// dispatcher starts `push-send/<sendId>` on the `push` queue with the send's id only:
// device tokens and credentials never travel through Temporal, the activities read them
// from Postgres.
export const PUSH_QUEUE = 'push';
export const PUSH_SEND_WORKFLOW_TYPE = 'pushSendWorkflow';

/** One workflow per send, started with REJECT_DUPLICATE: a send is never fanned out twice. */
export const pushSendWorkflowId = (sendId: string) => `push-send/${sendId}`;

export interface PushSendInput {
  sendId: string;
  /**
   * Where a continued run picks up (continue-as-new of a long send): the last `position`
   * already handled and the counts so far. Absent on the first run.
   */
  resume?: { afterPosition: number; totals: PushSendTotals };
}

/** Counts, never records: the workflow's history stays small whatever the send's size. */
export interface PushSendTotals {
  sent: number;
  failed: number;
  pages: number;
}

export interface PushPageInput {
  sendId: string;
  /** the page is the rows with position > afterPosition, in position order */
  afterPosition: number;
  limit: number;
}

export interface PushPageResult {
  /** devices this call pushed (recorded `sent`) */
  sent: number;
  /** devices this call recorded `failed` (dead token, no credentials, rejected, retries exhausted) */
  failed: number;
  /** rows in the page, whatever their state (a repeat finds some already recorded) */
  rows: number;
  /** the largest position in the page, or null when the page was empty */
  lastPosition: number | null;
  /** rows follow the page: the send is not over */
  more: boolean;
}

export interface PushSendActivities {
  /**
   * One page of the send: reads the page's rows still `queued` with their device tokens
   * and the app's credentials from Postgres, pushes them through the transport and
   * records every device's outcome before returning. A repeat of the call (a retry, a
   * worker killed mid-page) sends only the rows still `queued`.
   */
  sendPushPage(input: PushPageInput): Promise<PushPageResult>;
  /** Marks the send done (status, finished_at); idempotent. */
  finishPushSend(input: { sendId: string }): Promise<void>;
}

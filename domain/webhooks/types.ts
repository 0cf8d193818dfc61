// The records webhook code shares: the API that starts deliveries, the workflows that run
// their attempts, the activities that make them and the dispatcher. Types only.

/**
 * A delivery schedule, as data: each API has its own (domain/webhooks/retry-schedules.ts).
 * It travels in the workflow input, so a change of schedule reaches new deliveries only.
 */
export interface RetrySchedule {
  /**
   * The wait before each attempt, in ms, counted from the planned start of the previous
   * one; the first is 0 (at once). Its length is the number of attempts (1 to 10).
   */
  delaysMs: number[];
  /**
   * What follows the last failed attempt: nothing (the delivery is permanently failed), or
   * 'pause-endpoint': the endpoint is paused and its workspace is told by email.
   */
  onExhausted?: 'pause-endpoint';
}

/** How one delivery (or one attempt of it) ended. */
export type DeliveryResult = 'succeeded' | 'failed' | 'skipped';

/** What one POST to a receiver came back with. */
export interface AttemptResult {
  /** HTTP status of the answer, when one arrived */
  status?: number;
  /** true when no complete answer arrived within RECEIVER_TIMEOUT_MS */
  timedOut?: boolean;
  /** connection-level error (DNS, refused, TLS, forbidden address), when the request failed */
  error?: string;
}

export type FailureReason = 'non_2xx' | 'timeout' | 'unreachable';

/** An attempt's result read as a success or a failure with its reason (classifyOutcome). */
export type Outcome = { ok: true; status: number } | { ok: false; reason: FailureReason; detail: string };

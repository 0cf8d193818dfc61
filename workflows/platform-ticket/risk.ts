// Risk signals in the platform ticket workflow (docs/platform.md, "Risk signals"): the created
// ticket is assessed once at the start of its first run, and each published reply after its
// step. The assessment runs beside the ticket, not under its change lock and not awaited by the
// Update that published the reply: the ticket's changes never wait on the model. A run only
// ends (or continues as new) once its assessments have settled. One that still fails after the
// retry policy is logged and dropped: a risk signal never fails its ticket.
// Where it runs is the start input's choice (`riskInTask`, set by the API from its config): with
// only the in-process model it is a local activity, a few milliseconds inside the workflow
// task that starts it (no activity task and no extra workflow task per ticket); with an LLM
// endpoint configured (seconds) a regular activity, so it never holds the ticket's Updates.
// Behind patched('platform-ticket-risk'): runs recorded before it replay unchanged.
import { condition, log, patched, proxyActivities, proxyLocalActivities, type RetryPolicy } from '@temporalio/workflow';
import type { PlatformRiskActivities } from './contract';

export const RISK_PATCH = 'platform-ticket-risk';

// an outage of the database is waited out for about an hour and a half, then the signal is dropped
const retry: RetryPolicy = { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '5 minutes', maximumAttempts: 25 };
const asActivity = proxyActivities<PlatformRiskActivities>({ startToCloseTimeout: '30 seconds', retry });
// a failed attempt is retried on a durable timer (the threshold is the first backoff), never
// inside the workflow task, which would hold the ticket's next Updates meanwhile
const inTask = proxyLocalActivities<PlatformRiskActivities>({ startToCloseTimeout: '10 seconds', retry, localRetryThreshold: '1 second' });

export interface RiskWatch {
  /** the created ticket's text (call at the start of the first run only) */
  assessTicket(): void;
  /** a reply the run has just published */
  assessReply(replyId: string): void;
  /** resolves once no assessment is in flight */
  settled(): Promise<void>;
}

/** `inWorkflowTask`: the start input's `riskInTask` (absent in runs started before it: a regular activity). */
export function riskWatch(ticketId: string, inWorkflowTask = false): RiskWatch {
  const { assessPlatformRisk } = inWorkflowTask ? inTask : asActivity;
  let inFlight = 0;
  const assess = (replyId: string | null) => {
    if (!patched(RISK_PATCH)) return;
    inFlight++;
    assessPlatformRisk({ ticketId, replyId })
      .catch((err) => log.warn('risk assessment dropped', { ticketId, replyId, error: String(err) }))
      .finally(() => inFlight--);
  };
  return {
    assessTicket: () => assess(null),
    assessReply: (replyId) => assess(replyId),
    settled: async () => {
      if (inFlight > 0) await condition(() => inFlight === 0);
    },
  };
}

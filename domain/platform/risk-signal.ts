// Risk signals' shapes (docs/platform.md, "Risk signals"): what the workflow sends and gets back
// (ids and a label, never the text), the event's data and its dedupe key. Pure: the workflow
// contract imports it; the command is record-risk-signal.ts.
/** The signals of risk_signal.triggered (activities/triage/risk-dataset.ts RISK_LABELS, `none` aside). */
export type PlatformRiskSignal = 'fraud' | 'abuse' | 'account_compromise' | 'legal_threat';

/** The risk model as this command uses it (activities/platform/risk.ts adapts createRiskAssessor). */
export interface PlatformRiskAssessor {
  /** `signal` is null unless the text reads as a risk at or above the model's threshold. */
  assess(text: { title: string | null; body: string }): Promise<{ signal: PlatformRiskSignal | null; confidence: number; model: string }>;
}

export interface AssessPlatformRiskInput {
  ticketId: string;
  /** a published reply of the ticket; absent: the ticket's own subject and body */
  replyId?: string | null;
}

/** Ids and a label only: what the workflow may keep in its history. */
export interface AssessPlatformRiskResult {
  ticketId: string;
  replyId: string | null;
  /** the signal recorded (a retry answers the same), null when none */
  signal: PlatformRiskSignal | null;
}

/** risk_signal.triggered's `data` (snake_case, like every platform event). */
export interface RiskSignalData {
  ticket_id: string;
  reply_id: string | null;
  signal: PlatformRiskSignal;
  /** the model's probability of `signal`, 3 decimals */
  confidence: number;
  model: string;
  source: 'ticket' | 'reply';
}

/** One event per ticket and per reply: a retried activity records it once. */
export const riskSignalDedupeKey = (ticketId: string, replyId: string | null): string =>
  replyId ? `platform-risk:${ticketId}:reply:${replyId}` : `platform-risk:${ticketId}:ticket`;

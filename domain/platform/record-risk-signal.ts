// Risk signals (docs/platform.md, "Risk signals"): a new ticket's text, or a published reply's,
// assessed by the risk model; when it reads as fraud, abuse, an account compromise or a legal or
// chargeback threat, `risk_signal.triggered` goes to the events outbox (api 'platform').
// The text is read here from the row, so it never passes through the workflow's history; the
// event carries ids, the label, the confidence and the model, never the text.
import type { Db } from '../../db/db';
import { recordEvent } from '../../db/repositories/events';
import { findPlatformReply, findPlatformTicket } from '../../db/repositories/platform-tickets';
import { riskSignalDedupeKey, type AssessPlatformRiskInput, type AssessPlatformRiskResult, type PlatformRiskAssessor, type RiskSignalData } from './risk-signal';

export type { AssessPlatformRiskInput, AssessPlatformRiskResult, PlatformRiskAssessor, PlatformRiskSignal, RiskSignalData } from './risk-signal';

export async function assessPlatformRisk(db: Db, assessor: PlatformRiskAssessor, input: AssessPlatformRiskInput, now: Date): Promise<AssessPlatformRiskResult> {
  const replyId = input.replyId ?? null;
  const none: AssessPlatformRiskResult = { ticketId: input.ticketId, replyId, signal: null };
  const ticket = await findPlatformTicket(db, input.ticketId);
  if (!ticket) return none; // purged (with its workspace) before the assessment ran
  let text: { title: string | null; body: string };
  if (replyId) {
    const reply = await findPlatformReply(db, replyId);
    if (!reply || reply.ticketId !== ticket.id) return none;
    text = { title: null, body: reply.body };
  } else {
    text = { title: ticket.subject, body: ticket.body };
  }
  const { signal, confidence, model } = await assessor.assess(text);
  if (!signal) return none;
  const data: RiskSignalData = {
    ticket_id: ticket.id,
    reply_id: replyId,
    signal,
    confidence: Math.round(confidence * 1000) / 1000,
    model,
    source: replyId ? 'reply' : 'ticket',
  };
  await recordEvent(db, {
    workspaceId: ticket.workspaceId,
    type: 'risk_signal.triggered',
    subjectId: ticket.id,
    data,
    at: now,
    dedupeKey: riskSignalDedupeKey(ticket.id, replyId),
    api: 'platform',
    environment: ticket.environment,
  });
  return { ...none, signal };
}

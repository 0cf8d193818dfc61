import type { Db } from '../../db/db';
import { recordTriage, ticketForTriage } from '../../db/repositories/tickets';

export interface Triager {
  triage(input: { title: string; body: string; category?: string | null; playerName?: string | null }): Promise<{
    category: string;
    confidence: number;
    suggestedReply: string;
    model: string;
  }>;
}

/**
 * Fills the four read-only AI fields. A ticket created without a category gets the
 * suggested one, as the spec promises ("if omitted AI triage suggests one").
 */
export async function triageTicket(
  db: Db,
  triager: Triager,
  input: { ticketId: string },
): Promise<void> {
  // the text comes from the row, not the workflow: its history carries the body once
  const ticket = await ticketForTriage(db, input.ticketId);
  if (!ticket) return; // deleted before triage ran
  const result = await triager.triage({ title: ticket.title, body: ticket.body, category: ticket.category, playerName: ticket.name });
  await recordTriage(db, input.ticketId, {
    category: result.category,
    confidence: Math.round(result.confidence * 1000) / 1000,
    suggestedReply: result.suggestedReply,
  });
}

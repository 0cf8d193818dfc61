import type { Executor } from '../../db/db';
import { recordTriage, ticketForTriage } from '../../db/repositories/tickets';
import type { Triager } from './types';

/**
 * Fills the four read-only AI fields. A ticket created without a category gets the
 * suggested one, as the spec promises ("if omitted AI triage suggests one").
 */
export async function triageTicket(executor: Executor, triager: Triager, input: { ticketId: string }): Promise<void> {
  // the text comes from the row, not the workflow: its history carries the body once
  const ticket = await ticketForTriage(executor, input.ticketId);
  if (!ticket) return; // deleted before triage ran
  const result = await triager.triage({ title: ticket.title, body: ticket.body, category: ticket.category, playerName: ticket.name });
  await recordTriage(executor, input.ticketId, {
    category: result.category,
    confidence: Math.round(result.confidence * 1000) / 1000,
    suggestedReply: result.suggestedReply,
  });
}

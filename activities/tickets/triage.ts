import type { Db } from '../../db/db';

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
  input: { ticketId: string; title: string; body: string; category: string | null },
): Promise<void> {
  const { rows } = await db.query(
    'SELECT p.display_name AS name FROM tickets t LEFT JOIN players p ON p.id = t.player_ref WHERE t.id = $1',
    [input.ticketId],
  );
  if (!rows[0]) return; // deleted before triage ran
  const result = await triager.triage({ title: input.title, body: input.body, category: input.category, playerName: rows[0].name });
  await db.query(
    `UPDATE tickets SET ai_triaged = true, ai_suggested_category = $2, ai_confidence = $3, ai_suggested_reply = $4,
       category = COALESCE(category, $2), updated_at = date_trunc('milliseconds', now())
     WHERE id = $1`,
    [input.ticketId, result.category, Math.round(result.confidence * 1000) / 1000, result.suggestedReply],
  );
}

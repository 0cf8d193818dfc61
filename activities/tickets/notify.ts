import type { Transporter } from 'nodemailer';
import type { Db } from '../../db/db';

export interface Mailer {
  transport: Transporter | null;
  from: string;
}

/**
 * Emails the player that their ticket is resolved, through the original contact
 * channel: the player's email, or for tickets that came by email the address in
 * `metadata.email`. Returns whether a message was really accepted by the SMTP server.
 * Sent at most once per resolution (the notifications table is keyed by the step).
 */
export async function sendResolutionNotification(
  db: Db,
  mailer: Mailer,
  input: { ticketId: string; version: number },
): Promise<boolean> {
  const key = `${input.ticketId}:resolve:${input.version}`;
  const already = await db.query('SELECT 1 FROM notifications WHERE idempotency_key = $1', [key]);
  if (already.rowCount) return true;
  const { rows } = await db.query(
    `SELECT t.title, t.source, t.metadata, t.resolution_note AS "resolutionNote", p.email, p.display_name AS "displayName"
       FROM tickets t LEFT JOIN players p ON p.id = t.player_ref WHERE t.id = $1`,
    [input.ticketId],
  );
  const t = rows[0];
  if (!t || !mailer.transport) return false;
  const viaEmail = t.source === 'email' && typeof t.metadata?.email === 'string' ? t.metadata.email : null;
  const recipient: string | null = t.email ?? viaEmail;
  if (!recipient) return false;
  const info = await mailer.transport.sendMail({
    from: mailer.from,
    to: recipient,
    subject: `Resolved: ${t.title}`,
    text: [
      `Hi ${t.displayName ?? 'there'},`,
      '',
      `Your support ticket "${t.title}" (${input.ticketId}) has been resolved.`,
      'If the problem is not fixed, reply to this ticket and it will be re-opened.',
    ].join('\n'),
    headers: { 'X-Ticket-Id': input.ticketId },
  });
  await db.query(
    `INSERT INTO notifications (idempotency_key, ticket_id, channel, recipient, provider_message_id)
     VALUES ($1, $2, 'email', $3, $4) ON CONFLICT DO NOTHING`,
    [key, input.ticketId, recipient, info.messageId ?? null],
  );
  return true;
}

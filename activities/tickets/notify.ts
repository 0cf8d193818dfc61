import type { Transporter } from 'nodemailer';
import type { Db } from '../../db/db';
import { recordNotification, wasNotified } from '../../db/repositories/notifications';
import { resolutionMailFacts } from '../../db/repositories/tickets';

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
  if (await wasNotified(db, key)) return true;
  const t = await resolutionMailFacts(db, input.ticketId);
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
  await recordNotification(db, { idempotencyKey: key, ticketId: input.ticketId, channel: 'email', recipient, providerMessageId: info.messageId ?? null });
  return true;
}

import type { Db } from '../../db/db';
import { recordNotification, wasNotified } from '../../db/repositories/notifications';
import { resolutionMailFacts } from '../../db/repositories/tickets';
import { sendAccepted } from '../../lib/email/send-accepted';
import type { EmailChain } from '../../lib/email/types';

/** How ticket activities send email: the email chain (lib/email/chain.ts; NO_EMAIL sends none). */
export type Mailer = EmailChain;

/**
 * Emails the player that their ticket is resolved, through the original contact
 * channel: the player's email, or for tickets that came by email the address in
 * `metadata.email`. Returns whether a message was really accepted by a provider of the
 * email chain (its log line is not one); every configured provider failing throws, so
 * the activity retries. Sent at most once per resolution (the notifications table is
 * keyed by the step).
 */
export async function sendResolutionNotification(
  db: Db,
  mailer: Mailer,
  input: { ticketId: string; version: number },
): Promise<boolean> {
  const key = `${input.ticketId}:resolve:${input.version}`;
  if (await wasNotified(db, key)) return true;
  const t = await resolutionMailFacts(db, input.ticketId);
  if (!t) return false;
  const viaEmail = t.source === 'email' && typeof t.metadata?.email === 'string' ? t.metadata.email : null;
  const recipient: string | null = t.email ?? viaEmail;
  if (!recipient) return false;
  const accepted = await sendAccepted(mailer, {
    to: recipient,
    subject: `Resolved: ${t.title}`,
    text: [
      `Hi ${t.displayName ?? 'there'},`,
      '',
      `Your support ticket "${t.title}" (${input.ticketId}) has been resolved.`,
      'If the problem is not fixed, reply to this ticket and it will be re-opened.',
    ].join('\n'),
    tag: 'ticket-resolved',
    headers: { 'X-Ticket-Id': input.ticketId },
  });
  if (!accepted) return false;
  await recordNotification(db, { idempotencyKey: key, ticketId: input.ticketId, channel: 'email', recipient, providerMessageId: accepted.messageId });
  return true;
}

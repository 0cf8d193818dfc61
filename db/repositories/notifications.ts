// notifications: emails sent about tickets, keyed by workflow step so each is sent once.
import { In } from 'typeorm';
import { Notification } from '../entities';
import { managerOf, type Executor } from '../db';

export async function wasNotified(executor: Executor, idempotencyKey: string): Promise<boolean> {
  return managerOf(executor).exists(Notification, { where: { idempotencyKey } });
}

/** Records a sent email; a second record for the same key is dropped. */
export async function recordNotification(
  executor: Executor,
  n: { idempotencyKey: string; ticketId: string; channel: string; recipient: string; providerMessageId: string | null },
): Promise<void> {
  await managerOf(executor).createQueryBuilder().insert().into(Notification).values(n).orIgnore().execute();
}

/** Player erasure: the recipient (the player's address) of emails about these tickets. */
export async function anonymiseRecipients(executor: Executor, ticketIds: string[], token: string): Promise<void> {
  await managerOf(executor).update(Notification, { ticketId: In(ticketIds) }, { recipient: token });
}

// messages: replies on a ticket. listMessages (read on the measured get-by-id path) is in
// tickets.ts beside findTicket; this is the write side.
import { In } from 'typeorm';
import { Message } from '../entities';
import { managerOf, type Executor } from '../db';

export async function insertMessage(
  executor: Executor,
  m: { id: string; ticketId: string; authorId: string; authorType: 'player' | 'agent'; body: string; createdAt: string | Date },
): Promise<void> {
  await managerOf(executor).insert(Message, { ...m, createdAt: new Date(m.createdAt) });
}

/** Player erasure: the player's own messages on these tickets get the erasure token as author. */
export async function anonymisePlayerMessages(executor: Executor, ticketIds: string[], token: string): Promise<void> {
  await managerOf(executor).update(Message, { ticketId: In(ticketIds), authorType: 'player' }, { authorId: token });
}

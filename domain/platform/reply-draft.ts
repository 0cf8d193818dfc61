// PUT /tickets/{id}/reply, the API's half: the reply's text is stored as a hidden draft
// (version null) before the ticket's workflow takes the reply as a step by its id, so no
// workflow history carries the text (docs/platform.md, "Tickets"). A draft the ticket
// refused is dropped; one left by a crash stays hidden and goes with its ticket.
import type { SqlExecutor } from '../../db/db';
import { dropPlatformReplyDraft, insertPlatformReplyDraft } from '../../db/repositories/platform-tickets';
import { newId } from '../../lib/ids';

/** Stores the draft and answers its id. */
export async function draftPlatformReply(executor: SqlExecutor, ticketId: string, authorId: string, body: string): Promise<string> {
  const id = newId('rpl');
  await insertPlatformReplyDraft(executor, { id, ticketId, authorId, body });
  return id;
}

/** Drops a draft whose ticket refused the reply. */
export const dropPlatformReply = (executor: SqlExecutor, replyId: string) => dropPlatformReplyDraft(executor, replyId);

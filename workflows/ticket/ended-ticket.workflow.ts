import { allHandlersFinished, condition, setHandler } from '@temporalio/workflow';
import { thisUpdateKey } from '../update-step-key';
import { checkChange, type ChangeKind } from '../../domain/tickets/rules';
import type { TicketStatus } from '../../domain/tickets/types';
import { asRefusal, refusal } from '../refusal';
import { ticketNotFound } from '../../domain/tickets/errors';
import { assignUpdate, deleteUpdate, messageUpdate, patchUpdate, resolveUpdate, type EndedTicketInput } from './contract';
import { storage } from './ticket-activities';

/**
 * `ticket/<id>` again, after the ticket's lifecycle workflow has ended (it ends when the
 * ticket closes). The spec lets a closed ticket be deleted, so DELETE starts this run with
 * update-with-start: the workflow stays the only writer of the ticket, and the history
 * shows who deleted it. Its state table:
 *
 * | state    | accepts                                                          | timers |
 * |----------|------------------------------------------------------------------|--------|
 * | ended    | delete; any other change refused by the same rules as before (409/422) | 1 minute, then the run ends idle |
 * | deleted  | delete (a no-op); any other change: ticket_not_found             | —      |
 */
export async function endedTicketWorkflow(input: EndedTicketInput): Promise<'deleted' | 'idle'> {
  const state = { deleted: false };

  const gone = () => asRefusal(ticketNotFound(input.ticketId));
  const refuse = (kind: ChangeKind, requested?: TicketStatus): never => {
    const r = checkChange(input.status, kind, requested);
    throw r ? refusal(r.kind, r.type, r.message) : gone();
  };
  // the validators refuse every change but deletion; the handlers never run
  setHandler(patchUpdate, async (_change, _actor) => { throw gone(); }, { validator: (change, _actor) => refuse('patch', change.status) });
  setHandler(assignUpdate, async (_change, _actor) => { throw gone(); }, { validator: (_change, _actor) => refuse('assign') });
  setHandler(resolveUpdate, async (_change, _actor) => { throw gone(); }, { validator: (_change, _actor) => refuse('resolve') });
  setHandler(messageUpdate, async (_change, _actor) => { throw gone(); }, { validator: (_change, _actor) => refuse('message') });
  setHandler(deleteUpdate, async (actor) => {
    // the Update's id names the step (docs/tickets.md, "Step keys"); read before any await
    const key = thisUpdateKey();
    // the step after the last stored one; a ticket already gone is a no-op (null). A
    // number another change holds (`taken`, never in recorded histories): a closed
    // ticket still takes a delete, so it asks again with the next one
    for (let version = input.version + 1; !state.deleted; ) {
      const at = new Date().toISOString();
      const result = await storage.applyTicketChange({ ticketId: input.ticketId, version, at, change: { kind: 'delete' }, actor, key });
      if (result?.taken) version = result.version + 1;
      else state.deleted = true;
    }
    return { deleted: true as const };
  });

  // update-with-start delivers the delete with the start; the timeout only ends a run
  // that was started some other way
  await condition(() => state.deleted, '1 minute');
  await condition(allHandlersFinished);
  return state.deleted ? 'deleted' : 'idle';
}

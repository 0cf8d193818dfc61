import { allHandlersFinished, condition, setHandler } from '@temporalio/workflow';
import { assignUpdate, deleteUpdate, messageUpdate, patchUpdate, resolveUpdate, type EndedTicketInput } from './contract';
import { checkChange, type ChangeKind } from '../../domain/tickets/rules';
import type { TicketStatus } from '../../domain/tickets/types';
import { storage } from './ticket-run';
import { refusal } from '../refusal';

/**
 * `ticket/<id>` again, after the ticket's lifecycle workflow has ended (it ends when the
 * ticket closes). The spec lets a closed ticket be deleted, so DELETE starts this run with
 * update-with-start: the workflow stays the only writer of the ticket, and the history
 * shows who deleted it. Any other change is refused by the same rules as before (409/422);
 * one that arrives while the deletion runs finds the ticket gone (404).
 */
export async function endedTicketWorkflow(input: EndedTicketInput): Promise<'deleted' | 'idle'> {
  let deleted = false;

  const refuse = (kind: ChangeKind, requested?: TicketStatus): void => {
    const rejection = checkChange(input.status, kind, requested);
    if (rejection) throw refusal(rejection.kind, rejection.type, rejection.message);
    gone();
  };
  const gone = (): never => {
    throw refusal('not_found', 'ticket_not_found', `No ticket with id '${input.ticketId}' in this workspace`); // api/ticketing/errors.ts ticketNotFound
  };
  // the validators refuse every change but deletion; the handlers never run
  setHandler(patchUpdate, async (_change, _actor) => gone(), { validator: (change, _actor) => refuse('patch', change.status) });
  setHandler(assignUpdate, async (_change, _actor) => gone(), { validator: (_change, _actor) => refuse('assign') });
  setHandler(resolveUpdate, async (_change, _actor) => gone(), { validator: (_change, _actor) => refuse('resolve') });
  setHandler(messageUpdate, async (_change, _actor) => gone(), { validator: (_change, _actor) => refuse('message') });
  setHandler(deleteUpdate, async (actor) => {
    if (!deleted) {
      // the step after the last stored one; a ticket already gone is a no-op (null)
      const at = new Date().toISOString();
      await storage.applyTicketChange({ ticketId: input.ticketId, version: input.version + 1, at, change: { kind: 'delete' }, actor });
      deleted = true;
    }
    return { deleted: true as const };
  });

  // update-with-start delivers the delete with the start; the timeout only ends a run
  // that was started some other way
  await condition(() => deleted, '1 minute');
  await condition(allHandlersFinished);
  return deleted ? 'deleted' : 'idle';
}

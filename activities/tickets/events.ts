import type { MessageRecord, TicketRecord } from '../../domain/tickets/types';

// The outbox has one writer: db/repositories/events.ts.
export { recordEvent, type EventType } from '../../db/repositories/events';

/** `data` of ticket.* events: the ticket as the API shows it, without agent-only notes. */
export function ticketEventData(t: TicketRecord) {
  const { internalNote, resolutionNote, playerRef, firstResponseAt, aiSuggestedReply, ...rest } = t as TicketRecord & {
    version?: number;
  };
  delete (rest as any).version;
  return rest;
}

export function messageEventData(m: MessageRecord) {
  return m;
}

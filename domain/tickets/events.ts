import type { TicketRecord } from './types';

/** `data` of ticket.* events: the ticket as the API shows it, without agent-only notes. */
export function ticketEventData(t: TicketRecord) {
  const { internalNote, resolutionNote, playerRef, firstResponseAt, aiSuggestedReply, ...rest } = t as TicketRecord & {
    version?: number;
  };
  delete (rest as any).version;
  return rest;
}

// The ticketing API's refusals (the ticketing spec's codes): the kit's generic ones
// (api/kit/errors.ts) and the ticketing API's own.
import { AppError, errors as kitErrors } from '../kit/errors';
import { fromDomainError } from '../kit/error-middleware';
import { ticketNotFound } from '../../domain/tickets/errors';

export const errors = {
  ...kitErrors,
  /** the domain's refusal (domain/tickets/errors.ts), which the ticket workflow answers too */
  ticketNotFound: (id: string) => fromDomainError(ticketNotFound(id)),
  agentNotFound: (id: string) => new AppError(404, 'agent_not_found', `No agent with id '${id}' in this workspace`),
  playerNotFound: (id: string) => new AppError(404, 'player_not_found', `No player '${id}' in this workspace`),
  quotaExceeded: (limit: number) =>
    new AppError(429, 'ticket_quota_exceeded', `Monthly ticket quota of ${limit} tickets for this plan is used up`),
};

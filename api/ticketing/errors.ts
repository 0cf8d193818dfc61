// The ticketing API's refusals (Document 1's codes): the kit's generic ones
// (api/kit/errors.ts) and the ticketing API's own.
import { AppError, errors as kitErrors } from '../kit/errors';

export const errors = {
  ...kitErrors,
  ticketNotFound: (id: string) => new AppError(404, 'ticket_not_found', `No ticket with id '${id}' in this workspace`),
  agentNotFound: (id: string) => new AppError(404, 'agent_not_found', `No agent with id '${id}' in this workspace`),
  playerNotFound: (id: string) => new AppError(404, 'player_not_found', `No player '${id}' in this workspace`),
  quotaExceeded: (limit: number) =>
    new AppError(429, 'ticket_quota_exceeded', `Monthly ticket quota of ${limit} tickets for this plan is used up`),
};

// The ticket commands' refusals, one factory each. The ticketing gateway answers some in
// its own words (api/ticketing/tickets/gateway.ts: the player by the caller's id, the
// quota with its Retry-After); the codes are also the Temporal failure types.
import { DomainError } from '../errors';

export const ticketNotFound = (ticketId: string) => new DomainError('not_found', 'ticket_not_found', `No ticket with id '${ticketId}' in this workspace`);

/** A lifecycle step applied out of order: the row is at `at`, the step expects `expected`. */
export const versionConflict = (ticketId: string, at: number, expected: number) =>
  new DomainError('conflict', 'version_conflict', `Ticket ${ticketId} is at step ${at}, expected ${expected}`);

/** An unknown or erased player named by a new ticket (by the caller's id or a `kpl_` id). */
export const ticketPlayerNotFound = (playerRef: string) => new DomainError('not_found', 'player_not_found', `Player ${playerRef} does not exist`);

export const ticketQuotaExceeded = (limit: number) =>
  new DomainError('quota_exceeded', 'ticket_quota_exceeded', `Monthly ticket quota of ${limit} reached`, { limit });

// The player commands' refusals, one factory each.
import { DomainError } from '../errors';

export const playerNotFound = (id: string) => new DomainError('not_found', 'player_not_found', `No player '${id}' in this workspace`);

/** The caller's playerId belongs to an erased profile (unreachable while `erased_` is reserved). */
export const playerErased = (playerId: string) => new DomainError('conflict', 'player_erased', `Player '${playerId}' was erased`);

// Revokes every token of a user (a deactivation: DELETE /users/{id}): the refusal marker
// first (`markRevoked`, the API's platformTokens(deps).revoke: every process refuses the
// tokens from the next request on, whatever its cache holds), then the rows, inside the
// caller's transaction when it passes one. Revoking again finds nothing left and answers [].
import type { Executor } from '../../db/db';
import { revokePlatformTokens, unrevokedPlatformTokenIdsOfUser } from '../../db/repositories/platform-tokens';

/** The ids it revoked. */
export async function revokeUserTokens(
  executor: Executor,
  userId: string,
  markRevoked: (ids: string[]) => Promise<void>,
  now: Date,
): Promise<string[]> {
  const ids = await unrevokedPlatformTokenIdsOfUser(executor, userId);
  if (ids.length === 0) return [];
  await markRevoked(ids);
  await revokePlatformTokens(executor, ids, now);
  return ids;
}

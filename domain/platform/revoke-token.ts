// Revokes a token (DELETE /auth/tokens/{id}): its owner, or an admin who reaches its
// workspace, may. The refusal marker first (`markRevoked`: every process refuses the token
// from the next request on, whatever its cache holds), then the row; a second revocation
// answers as the first did.
import type { Db } from '../../db/db';
import { findPlatformToken, revokePlatformTokens } from '../../db/repositories/platform-tokens';
import { hasRole, reachesWorkspace, type PlatformCaller } from './access.rules';
import { platformNotFound } from './errors';

export async function revokePlatformToken(
  db: Db,
  caller: PlatformCaller,
  tokenId: string,
  markRevoked: (ids: string[]) => Promise<void>,
  now: Date,
): Promise<void> {
  const token = await findPlatformToken(db, tokenId);
  const mine = token?.userId === caller.userId && token.organizationId === caller.organizationId;
  const managed = token && hasRole(caller, 'admin') && reachesWorkspace(caller, { id: token.workspaceId, organizationId: token.organizationId });
  if (!token || !(mine || managed)) throw platformNotFound('token', tokenId);
  await markRevoked([token.id]);
  await revokePlatformTokens(db, [token.id], now);
}

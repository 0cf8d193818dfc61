// Platform tokens on the authentication hot path: the kit's credential cache
// (api/kit/auth/credential-cache.ts) over the one-query lookup (token, creator, workspace,
// organisation), so a token is read from Postgres at most every 30 s per process. What must
// take effect at once does not depend on the cache:
//   - revocation (DELETE /auth/tokens/{id}, a deactivated user's tokens): a Redis marker
//     set before the answer, checked in the same Lua call that takes the rate-limit slot;
//   - expiry: the cached row carries expires_at, compared with the clock on every request.
// A role change reaches the user's tokens within the cache's 30 s in other processes, at
// once in the process that made it (forgetUser; a workspace's deletion and restore: forgetWorkspace).
import { hashApiKey } from '../../../lib/api-keys';
import { findPlatformTokenPrincipal, findPlatformTokenPrincipalById, touchPlatformToken } from '../../../db/repositories/platform-tokens';
import type { PlatformTokenPrincipalRow } from '../../../domain/platform/types';
import { looksLikePlatformToken } from '../../../domain/platform/token-secret';
import { perDeps, type AppDeps } from '../../deps';
import { errors } from '../../kit/errors';
import { credentialCache } from '../../kit/auth/credential-cache';
import { isDependencyDown } from '../../kit/dependency-errors';

/** The revocation marker of a token; its hash tag is the token's rate-limit subject (limits.ts). */
export const platformTokenRevokedMarker = (tokenId: string) => `platform:revoked:{token:${tokenId}}`;

export interface PlatformTokens {
  /** The unrevoked token for a presented secret, or null (expiry is the caller's check). */
  resolve(secret: string): Promise<PlatformTokenPrincipalRow | null>;
  /** The same by the token's id (a settings session's credential). */
  resolveId(tokenId: string): Promise<PlatformTokenPrincipalRow | null>;
  /** Records a use (last_used_at, the user's last_active_at) at most once a minute, off the request path. */
  touch(tokenId: string): void;
  /** Waits for the last_used_at writes still in flight in this process. */
  pendingTouches(): Promise<void>;
  /** Refuses the tokens from the next request on in every process (Redis marker), then forgets them here. */
  revoke(tokenIds: string[]): Promise<void>;
  /** Drops this process's cached rows of a user's tokens (a role change). */
  forgetUser(userId: string): void;
  /** Drops this process's cached rows of a workspace's tokens (they carry its status: a deletion, a restore). */
  forgetWorkspace(workspaceId: string): void;
}

const counters = { hits: 0, misses: 0 };

export const platformTokens = perDeps(createPlatformTokens);

function createPlatformTokens(deps: AppDeps): PlatformTokens {
  const cache = credentialCache<PlatformTokenPrincipalRow>({
    redis: deps.redis,
    logger: deps.logger,
    counters,
    revokedMarker: platformTokenRevokedMarker,
    recordUse: (tokenId) => touchPlatformToken(deps.db, tokenId),
  });
  return {
    async resolve(secret) {
      if (!looksLikePlatformToken(secret)) return null;
      const hash = hashApiKey(secret);
      return cache.get(hash, () => findPlatformTokenPrincipal(deps.db, hash));
    },
    resolveId(tokenId) {
      return cache.get(`id:${tokenId}`, () => findPlatformTokenPrincipalById(deps.db, tokenId));
    },
    touch: cache.touch,
    pendingTouches: () => cache.pendingTouch(),
    async revoke(tokenIds) {
      try {
        await cache.markRevoked(tokenIds);
      } catch (err) {
        // nothing is revoked yet: the client retries (Redis down); anything else is a bug
        if (!isDependencyDown(err)) throw err;
        deps.logger.error({ err }, 'platform token revocation marker not set');
        throw errors.unavailable('The token cannot be revoked right now; retry the request');
      }
      for (const id of tokenIds) cache.forget(id);
    },
    forgetUser: (userId) => cache.forgetWhere((row) => row.userId === userId),
    forgetWorkspace: (workspaceId) => cache.forgetWhere((row) => row.workspaceId === workspaceId),
  };
}

/** Hit/miss counters of the platform token cache in this process (benchmarks, tests). */
export function platformTokenCacheStats(): { hits: number; misses: number } {
  return { ...counters };
}

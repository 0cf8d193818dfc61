import { perDeps, type AppDeps } from '../../deps';
import { errors } from '../errors';
import { hashApiKey, keyKindOf } from '../../../lib/api-keys';
import type { AuthContext } from '../access';
import { apiKeysRepository, type ApiKeysRepository } from '../../../db/repositories/api-keys';
import type { KeyRow } from '../../../domain/auth/types';
import { credentialCache, type CredentialCache } from '../../kit/auth/credential-cache';
import { appSigningKeys, type SigningKeys } from '../../kit/auth/signing-keys';
import { TtlCache } from '../../kit/auth/ttl-cache';
import { looksLikeJwt } from '../../kit/auth/verified-payload';
import { keyCounters, tokenCounters, trackCacheSizes } from './cache-stats';
import { revokedMarker } from './rate-limit';
import { verifyToken, type TokenClaims } from './tokens';

const MAX_CREDENTIAL_LENGTH = 4096;
const MAX_CACHED_TOKENS = 100_000;

export interface Resolved {
  row: KeyRow;
  via: AuthContext['via'];
  expiresAt: number | null;
}

/** Everything auth keeps per app instance: the signing keys, caches and the repository. */
export interface AuthServices {
  repo: ApiKeysRepository;
  signing: SigningKeys;
  /** the key rows, their lastUsedAt touch and their revocation markers (the kit's credential cache) */
  keys: CredentialCache<KeyRow>;
  /** A bearer value (a key or an access token) → its key row; 401 for anything unusable. */
  resolve(credential: string): Promise<Resolved>;
  keyByHash(hash: string): Promise<KeyRow | null>;
  /** A settings session's key (by its id, from the kit's session store) → its row; 401 when revoked or gone. */
  resolveKeyId(keyId: string): Promise<Resolved>;
  /** Drops a key and the tokens issued for it from this process's caches (the Redis marker covers the others). */
  forget(keyId: string): void;
}

export const authServices = perDeps(createAuthServices);

function createAuthServices(deps: AppDeps): AuthServices {
  const repo = apiKeysRepository(deps.db);
  const signing = appSigningKeys(deps);
  // verified tokens, each until its own expiry; the key rows in the kit's credential cache
  const tokens = new TtlCache<TokenClaims>(MAX_CACHED_TOKENS, tokenCounters);
  const keys = credentialCache<KeyRow>({
    redis: deps.redis,
    logger: deps.logger,
    counters: keyCounters,
    revokedMarker,
    recordUse: (keyId) => repo.touch(keyId),
  });
  const caches = { tokens, keys };
  trackCacheSizes(caches);

  const lookup = (query: () => Promise<KeyRow | null>) => () =>
    query().catch((err) => {
      deps.logger.error({ err }, 'API key lookup failed');
      throw errors.unavailable();
    });
  const keyByHash = (hash: string) => keys.get(`h:${hash}`, lookup(() => repo.findByHash(hash)));
  const keyById = (id: string) => keys.get(`i:${id}`, lookup(() => repo.findById(id)));

  async function resolve(credential: string): Promise<Resolved> {
    if (credential.length > MAX_CREDENTIAL_LENGTH) throw errors.unauthorized();
    if (keyKindOf(credential)) {
      const row = await keyByHash(hashApiKey(credential));
      if (!row || row.revokedAt) throw errors.unauthorized();
      return { row, via: 'key', expiresAt: null };
    }
    if (!looksLikeJwt(credential)) throw errors.unauthorized();
    let claims = tokens.get(credential);
    if (!claims) {
      const verified = await verifyToken(signing, credential);
      if (!verified) throw errors.unauthorized('Invalid or expired access token');
      claims = verified;
      // cached exactly until expiry, so an expired token is never served from here
      tokens.set(credential, claims, claims.expiresAt);
    }
    const row = await keyById(claims.keyId);
    if (!row || row.revokedAt || row.organizationId !== claims.organizationId || row.type !== 'server') {
      throw errors.unauthorized();
    }
    return { row, via: 'token', expiresAt: claims.expiresAt };
  }

  async function resolveKeyId(keyId: string): Promise<Resolved> {
    const row = await keyById(keyId);
    if (!row || row.revokedAt || row.type !== 'server') throw errors.unauthorized('This session has ended; sign in again');
    return { row, via: 'key', expiresAt: null };
  }

  return {
    repo,
    signing,
    keys,
    resolve,
    resolveKeyId,
    keyByHash,
    forget(keyId) {
      caches.keys.forget(keyId);
      caches.tokens.deleteWhere((claims) => claims.keyId === keyId);
    },
  };
}

import { perDeps, type AppDeps } from '../../deps';
import { singleFlight } from '../../../lib/single-flight';
import { errors } from '../errors';
import { hashApiKey, keyKindOf } from '../../../lib/api-keys';
import { webhookSecretKey } from '../../../lib/webhooks/secret-box';
import type { AuthContext } from '../access';
import { apiKeysRepository, type ApiKeysRepository, type KeyRow } from '../../../db/repositories/api-keys';
import { signingKeys, type SigningKeys } from './signing-keys';
import { newAuthCaches } from './token-cache';
import { verifyToken, type TokenClaims } from './tokens';
import { looksLikeJwt } from './verified-payload';

// A found key row is reused for 30 s; an unknown hash for 5 s (keys carry 256 random
// bits, so a hash cannot be "not found" now and valid a moment later except for a key
// created in between, which nobody could have presented before it existed).
const KEY_TTL_MS = 30_000;
const MISSING_KEY_TTL_MS = 5_000;
// lastUsedAt is advisory: one write per key per minute per process is plenty.
const TOUCH_INTERVAL_MS = 60_000;
const MAX_CREDENTIAL_LENGTH = 4096;

export interface Resolved {
  row: KeyRow;
  via: AuthContext['via'];
  expiresAt: number | null;
}

/** Everything auth keeps per app instance: the signing keys, caches and the repository. */
export interface AuthServices {
  repo: ApiKeysRepository;
  signing: SigningKeys;
  /** A bearer value (a key or an access token) → its key row; 401 for anything unusable. */
  resolve(credential: string): Promise<Resolved>;
  keyByHash(hash: string): Promise<KeyRow | null>;
  /** Drops a key from this process's caches (the Redis marker covers the others). */
  forget(keyId: string): void;
  /** Records a use of the key at most once a minute, off the request path. */
  touch(keyId: string): void;
  /** The lastUsedAt write still in flight for the key, so /auth/me can read its own use. */
  pendingTouch(keyId: string): Promise<void>;
}

export const authServices = perDeps(createAuthServices);

function createAuthServices(deps: AppDeps): AuthServices {
  const repo = apiKeysRepository(deps.db);
  // the secret-box key opens the stored private signing keys (never kept in the database)
  const signing = signingKeys(deps.db, deps.config.jwtPrivateKeyPem, deps.logger, () => webhookSecretKey(deps.config));
  const { tokens, keys } = newAuthCaches<TokenClaims, KeyRow | null>();
  const shared = singleFlight<KeyRow | null>();
  const touchedAt = new Map<string, number>();
  const touches = new Map<string, Promise<void>>();

  function cachedKey(cacheKey: string, load: () => Promise<KeyRow | null>): Promise<KeyRow | null> {
    const hit = keys.get(cacheKey);
    if (hit !== undefined) return Promise.resolve(hit);
    return shared(cacheKey, () =>
      load()
        .catch((err) => {
          deps.logger.error({ err }, 'API key lookup failed');
          throw errors.unavailable();
        })
        .then((row) => {
          keys.set(cacheKey, row, Date.now() + (row ? KEY_TTL_MS : MISSING_KEY_TTL_MS));
          return row;
        }),
    );
  }

  const keyByHash = (hash: string) => cachedKey(`h:${hash}`, () => repo.findByHash(hash));
  const keyById = (id: string) => cachedKey(`i:${id}`, () => repo.findById(id));

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

  return {
    repo,
    signing,
    resolve,
    keyByHash,
    forget(keyId) {
      keys.deleteWhere((row) => row?.id === keyId);
      tokens.deleteWhere((claims) => claims.keyId === keyId);
    },
    touch(keyId) {
      const now = Date.now();
      if (now - (touchedAt.get(keyId) ?? 0) < TOUCH_INTERVAL_MS) return;
      touchedAt.set(keyId, now);
      const p = repo
        .touch(keyId)
        .catch((err) => deps.logger.warn({ err, keyId }, 'could not record lastUsedAt'))
        .finally(() => touches.delete(keyId));
      touches.set(keyId, p);
    },
    pendingTouch: (keyId) => touches.get(keyId) ?? Promise.resolve(),
  };
}

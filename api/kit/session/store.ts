// The settings pages' sessions in Redis (docs/settings.md, "Sessions"). The browser holds
// only a random id in a cookie; Redis keeps the session under the id's SHA-256, so a read
// of Redis yields no cookie that signs anybody in. A session holds ids only (the API, the
// credential's id, its organisation and workspace), never a secret: every request made
// with it resolves that credential again through its API's own authentication, so
// revocation, expiry, scopes and rate limits are the credential's own.
//
// Time is the app's one injectable clock (nowOf): the idle and absolute expiries are
// compared with it on every read; Redis's own TTL only collects what nobody reads again.
import { createHash, randomBytes } from 'node:crypto';
import { nowOf, perDeps, type AppDeps } from '../../deps';
import { errors } from '../errors';
import { isDependencyDown } from '../dependency-errors';

export type WebSessionApi = 'ticketing' | 'platform' | 'push';
export const WEB_SESSION_APIS: readonly WebSessionApi[] = ['ticketing', 'platform', 'push'];

/** Who signed in, as the API's sign-in verifier found it. */
export interface SessionSubject {
  api: WebSessionApi;
  /** a ticketing API key id, a platform token id or a push user id */
  credentialId: string;
  /** what the pages show for it (a key's name and prefix, a token's name, an email): never a secret */
  label: string;
  organizationId: string | null;
  workspaceId: string | null;
  environment: 'live' | 'test' | null;
  /** epoch ms the credential itself stops being valid (an access token's expiry), if it does */
  notAfter?: number | null;
}

export interface WebSession extends Omit<SessionSubject, 'notAfter'> {
  /** the id's hash: the Redis key's suffix, never the cookie's value */
  id: string;
  csrfToken: string;
  createdAt: number;
  lastSeenAt: number;
  /** the end of the session whatever its use (absolute lifetime, or the credential's own end) */
  expiresAt: number;
  /** the end of the session unless it is used before */
  idleExpiresAt: number;
}

export interface WebSessionStore {
  /** A new session; `cookieValue` goes to the browser and nowhere else. */
  create(subject: SessionSubject): Promise<{ cookieValue: string; session: WebSession }>;
  /** The live session of a cookie value, its idle expiry moved on; null when unknown or expired. */
  get(cookieValue: string): Promise<WebSession | null>;
  /** Ends a session (sign-out, or its credential found unusable). */
  end(session: Pick<WebSession, 'id'>): Promise<void>;
}

const COOKIE_VALUE = /^[A-Za-z0-9_-]{43}$/;
const keyOf = (id: string) => `websession:{${id}}`;
const hashOf = (cookieValue: string) => createHash('sha256').update(cookieValue).digest('base64url');

/** Redis unreachable: the kit's 503 (docs/reliability.md), never a 500. */
async function redisCall<T>(deps: AppDeps, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (!isDependencyDown(err)) throw err;
    deps.logger.warn({ err }, 'web session store unavailable');
    throw errors.unavailable('Sessions are unavailable right now; retry later');
  }
}

export const webSessionStore = perDeps(createStore);

function createStore(deps: AppDeps): WebSessionStore {
  const { idleMs, absoluteMs } = deps.config.webSessions;
  // the Redis TTL follows the idle expiry: an abandoned session leaves Redis by itself
  const ttlMs = (s: WebSession, now: number) => Math.max(1, s.idleExpiresAt - now);
  const insert = (s: WebSession, now: number) => redisCall(deps, () => deps.redis.set(keyOf(s.id), JSON.stringify(s), 'PX', ttlMs(s, now), 'NX'));
  // XX on a refresh: a session ended meanwhile (a sign-out on another tab) is not brought back
  const refresh = (s: WebSession, now: number) => redisCall(deps, () => deps.redis.set(keyOf(s.id), JSON.stringify(s), 'PX', ttlMs(s, now), 'XX'));

  return {
    async create(subject) {
      const cookieValue = randomBytes(32).toString('base64url');
      const now = nowOf(deps).getTime();
      const expiresAt = Math.min(now + absoluteMs, subject.notAfter ?? Infinity);
      const { notAfter: _ignored, ...who } = subject;
      const session: WebSession = {
        ...who,
        id: hashOf(cookieValue),
        csrfToken: randomBytes(32).toString('base64url'),
        createdAt: now,
        lastSeenAt: now,
        expiresAt,
        idleExpiresAt: Math.min(now + idleMs, expiresAt),
      };
      if (!(await insert(session, now))) throw new Error('web session id collision'); // 256 random bits: never
      return { cookieValue, session };
    },

    async get(cookieValue) {
      if (!COOKIE_VALUE.test(cookieValue)) return null;
      const id = hashOf(cookieValue);
      const raw = await redisCall(deps, () => deps.redis.get(keyOf(id)));
      if (!raw) return null;
      const stored = JSON.parse(raw) as WebSession;
      const now = nowOf(deps).getTime();
      if (now >= stored.idleExpiresAt || now >= stored.expiresAt) {
        await redisCall(deps, () => deps.redis.del(keyOf(id)));
        return null;
      }
      const session = { ...stored, lastSeenAt: now, idleExpiresAt: Math.min(now + idleMs, stored.expiresAt) };
      return (await refresh(session, now)) ? session : null;
    },

    async end(session) {
      await redisCall(deps, () => deps.redis.del(keyOf(session.id)));
    },
  };
}

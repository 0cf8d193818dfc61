import { createPrivateKey, createPublicKey } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type JWK, type KeyLike } from 'jose';
import type { Executor } from '../../../db/db';
import { deleteSigningKeys, insertSigningKeyIfAbsent, listSigningKeys } from '../../../db/repositories/signing-keys';
import type { Logger } from '../../../lib/logger';
import { decryptSecret, encryptSecret } from '../../../lib/crypto/secret-box';
import { masterKey } from '../../../lib/crypto/master-key';
import { perDeps, type AppDeps } from '../../deps';
import { errors } from '../errors';

export const ALG = 'RS256';

/**
 * The longest lifetime of a token signed with these keys: the ticketing API's access
 * tokens (3600 s, its spec's Limits table); push access tokens live 15 minutes. A retired
 * key verifies this long after its successor appeared (retiredKeyGraceMs).
 */
export const LONGEST_TOKEN_TTL_SECONDS = 3600;

// The generated key lives in one well-known row: every API process that starts without
// JWT_PRIVATE_KEY races to INSERT it, ON CONFLICT lets exactly one win, and all of them
// then read the winner back, so tokens issued by any process verify on every other.
// A rotation (`npm run admin -- rotate-signing-key`) inserts `…-2` and so on: the newest
// signs, an older one still verifies until the tokens it signed have expired.
//
// The private half is stored only inside the secret box (AES-256-GCM, bound to its kid),
// whose key comes from configuration (WEBHOOK_SECRET_KEY), never from the database: one
// database read is not enough to forge a token (docs/auth.md, "Signing keys").
const GENERATED_KID_PREFIX = 'ticketing-rs256-';
const FIRST_GENERATED_KID = `${GENERATED_KID_PREFIX}1`;
// An unknown kid (say, a key rotated in by another process) triggers at most one reload per window.
const RELOAD_INTERVAL_MS = 10_000;
// Every process rereads the table this often, so a rotation reaches all of them within it.
export const REFRESH_INTERVAL_MS = 60_000;

/**
 * How long a key keeps verifying after its successor appeared: the lifetime of a token
 * plus the time a process may still sign with it before its next refresh (twice, for margin).
 */
export function retiredKeyGraceMs(): number {
  return LONGEST_TOKEN_TTL_SECONDS * 1000 + 2 * REFRESH_INTERVAL_MS;
}

export interface SigningKeySet {
  kid: string;
  privateKey: KeyLike;
  /** kid → public key used for verification */
  verifiers: Map<string, KeyLike>;
  /** kid → epoch ms after which a retired key no longer verifies (absent: no end) */
  verifiesUntil: Map<string, number>;
  /** what GET /v1/.well-known/jwks.json serves */
  jwks: JWK[];
}

export interface SigningKeys {
  /** the key new tokens are signed with */
  current(): Promise<SigningKeySet>;
  /** the public key for `kid`, reloading from Postgres once if it is not known yet; null when unknown or retired */
  verifier(kid: string | undefined): Promise<KeyLike | null>;
}

function publicJwk(jwk: JWK, kid: string): JWK {
  return { kty: jwk.kty, n: jwk.n, e: jwk.e, kid, alg: ALG, use: 'sig' };
}

async function fromPem(pem: string): Promise<SigningKeySet> {
  const privateKey = createPrivateKey(pem);
  const jwk = (await exportJWK(createPublicKey(privateKey))) as JWK;
  const kid = await calculateJwkThumbprint(jwk);
  const pub = publicJwk(jwk, kid);
  return { kid, privateKey, verifiers: new Map([[kid, (await importJWK(pub, ALG)) as KeyLike]]), verifiesUntil: new Map(), jwks: [pub] };
}

interface Row {
  kid: string;
  /** the private JWK as JSON, in the secret box */
  private_key_box: string;
  public_jwk: JWK;
  created_at: Date;
}

const boxContext = (kid: string) => `signing_keys:${kid}`;

/** The private JWK of a stored key (the migration and the tests use it too). */
export function openPrivateJwk(boxKey: Buffer, kid: string, box: string): JWK {
  return JSON.parse(decryptSecret(boxKey, box, boxContext(kid)));
}

export function sealPrivateJwk(boxKey: Buffer, kid: string, jwk: JWK): string {
  return encryptSecret(boxKey, JSON.stringify(jwk), boxContext(kid));
}

async function generateRow(kid: string, boxKey: Buffer): Promise<Omit<Row, 'created_at'>> {
  const { privateKey, publicKey } = await generateKeyPair(ALG, { modulusLength: 2048, extractable: true });
  return { kid, private_key_box: sealPrivateJwk(boxKey, kid, await exportJWK(privateKey)), public_jwk: publicJwk(await exportJWK(publicKey), kid) };
}

async function insertRow(db: Executor, row: Omit<Row, 'created_at'>): Promise<void> {
  await insertSigningKeyIfAbsent(db, { kid: row.kid, privateKeyBox: row.private_key_box, publicJwk: row.public_jwk });
}

const generation = (kid: string) => (kid.startsWith(GENERATED_KID_PREFIX) ? Number(kid.slice(GENERATED_KID_PREFIX.length)) : 0);

/** Oldest first: by generation (the order of rotations), then by creation. */
async function loadRows(db: Executor): Promise<Row[]> {
  const keys = await listSigningKeys(db);
  const rows = keys.map((k) => ({ kid: k.kid, private_key_box: k.privateKeyBox, public_jwk: k.publicJwk, created_at: k.createdAt }));
  return rows.sort((a, b) => generation(a.kid) - generation(b.kid));
}

/** kid → end of verification for every retired row (one whose successor exists); rows oldest first. */
function retirements(rows: Row[]): Map<string, number> {
  const until = new Map<string, number>();
  for (let i = 0; i + 1 < rows.length; i++) until.set(rows[i].kid, new Date(rows[i + 1].created_at).getTime() + retiredKeyGraceMs());
  return until;
}

async function fromRows(rows: Row[], boxKey: () => Buffer, now = Date.now()): Promise<SigningKeySet> {
  // Sign with the newest generated key; verify with it and the retired ones still in grace.
  const active = rows.filter((r) => generation(r.kid) > 0).at(-1)!;
  const until = retirements(rows);
  until.delete(active.kid);
  const verifying = rows.filter((r) => (until.get(r.kid) ?? Infinity) > now);
  const verifiers = new Map<string, KeyLike>();
  for (const r of verifying) verifiers.set(r.kid, (await importJWK(publicJwk(r.public_jwk, r.kid), ALG)) as KeyLike);
  return {
    kid: active.kid,
    privateKey: (await importJWK({ ...openPrivateJwk(boxKey(), active.kid, active.private_key_box), alg: ALG }, ALG)) as KeyLike,
    verifiers,
    verifiesUntil: until,
    jwks: verifying.map((r) => publicJwk(r.public_jwk, r.kid)),
  };
}

async function loadOrCreate(db: Executor, boxKey: () => Buffer): Promise<SigningKeySet> {
  let rows = await loadRows(db);
  if (!rows.some((r) => generation(r.kid) > 0)) {
    await insertRow(db, await generateRow(FIRST_GENERATED_KID, boxKey()));
    rows = await loadRows(db);
  }
  return fromRows(rows, boxKey);
}

/**
 * Rotation: a new generated key that signs from now on (every process within
 * REFRESH_INTERVAL_MS); the previous one verifies for retiredKeyGraceMs() more. Keys
 * retired longer ago than that are deleted. Returns the new kid and the deleted ones.
 */
export async function rotateSigningKey(db: Executor, boxKey: Buffer): Promise<{ kid: string; deleted: string[] }> {
  const rows = await loadRows(db);
  const kid = `${GENERATED_KID_PREFIX}${Math.max(0, ...rows.map((r) => generation(r.kid))) + 1}`;
  await insertRow(db, await generateRow(kid, boxKey));
  const after = await loadRows(db);
  const expired = [...retirements(after)].filter(([, until]) => until <= Date.now()).map(([k]) => k);
  if (expired.length) await deleteSigningKeys(db, expired);
  return { kid, deleted: expired };
}

/**
 * The RS256 key set of one API process: `JWT_PRIVATE_KEY` (PKCS#8 PEM, kid = its JWK
 * thumbprint) when configured, otherwise the keys persisted in `signing_keys`, whose
 * private halves `boxKey` (the secret-box key from configuration) opens.
 */
export function signingKeys(db: Executor, pem: string | undefined, logger: Logger, boxKey: () => Buffer): SigningKeys {
  let set: Promise<SigningKeySet> | undefined;
  let loadedAt = 0;
  let lastReload = 0;
  let refreshing = false;
  const fetchSet = () => (pem ? fromPem(pem) : loadOrCreate(db, boxKey));
  const load = () => {
    const loading = fetchSet().catch((err) => {
      if (set === loading) set = undefined; // a failed load (database down) is retried by the next request
      logger.error({ err }, 'could not load the token signing keys');
      throw errors.unavailable('Token signing keys are unavailable; retry later');
    });
    loadedAt = Date.now();
    return (set = loading);
  };
  // A due refresh runs beside the requests, which keep the current set meanwhile (and
  // after a failed refresh: a database blip does not stop token issuance).
  const refresh = () => {
    if (pem || refreshing || Date.now() - loadedAt < REFRESH_INTERVAL_MS) return;
    refreshing = true;
    fetchSet()
      .then((s) => {
        set = Promise.resolve(s);
        loadedAt = Date.now();
      })
      .catch((err) => logger.warn({ err }, 'could not refresh the token signing keys; keeping the loaded ones'))
      .finally(() => (refreshing = false));
  };
  const current = () => {
    if (!set) return load();
    refresh();
    return set;
  };
  const usable = (s: SigningKeySet, kid: string) => ((s.verifiesUntil.get(kid) ?? Infinity) > Date.now() ? s.verifiers.get(kid) ?? null : null);
  return {
    current,
    async verifier(kid) {
      if (!kid) return null;
      const s = await current();
      if (s.verifiers.has(kid) || pem || Date.now() - lastReload < RELOAD_INTERVAL_MS) return usable(s, kid);
      lastReload = Date.now();
      return usable(await load(), kid);
    },
  };
}

/**
 * The one signing-key set of an app instance, shared by every API that issues tokens
 * (ticketing access tokens, push user tokens; each with its own claims and audience).
 * The secret-box key from configuration opens the stored private keys.
 */
export const appSigningKeys = perDeps((deps: AppDeps) =>
  signingKeys(deps.db, deps.config.jwtPrivateKeyPem, deps.logger, () => masterKey(deps.config)),
);

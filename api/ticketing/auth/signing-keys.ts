import { createPrivateKey, createPublicKey } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type JWK, type KeyLike } from 'jose';
import type { Executor } from '../../../db/db';
import { insertSigningKeyIfAbsent, listSigningKeys } from '../../../db/repositories/signing-keys';
import type { Logger } from '../../../lib/logger';
import { errors } from '../../errors';

export const ALG = 'RS256';

// The generated key lives in one well-known row: every API process that starts without
// JWT_PRIVATE_KEY races to INSERT it, ON CONFLICT lets exactly one win, and all of them
// then read the winner back, so tokens issued by any process verify on every other.
// A later rotation inserts `…-2` and so on; verification keeps accepting older rows.
const GENERATED_KID_PREFIX = 'ticketing-rs256-';
const FIRST_GENERATED_KID = `${GENERATED_KID_PREFIX}1`;
// An unknown kid (say, a key rotated in by another process) triggers at most one reload per window.
const RELOAD_INTERVAL_MS = 10_000;

export interface SigningKeySet {
  kid: string;
  privateKey: KeyLike;
  /** kid → public key used for verification */
  verifiers: Map<string, KeyLike>;
  /** what GET /v1/.well-known/jwks.json serves */
  jwks: JWK[];
}

export interface SigningKeys {
  /** the key new tokens are signed with */
  current(): Promise<SigningKeySet>;
  /** the public key for `kid`, reloading from Postgres once if it is not known yet; null when unknown */
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
  return { kid, privateKey, verifiers: new Map([[kid, await importJWK(pub, ALG) as KeyLike]]), jwks: [pub] };
}

interface Row {
  kid: string;
  private_jwk: JWK;
  public_jwk: JWK;
}

async function generateRow(kid: string): Promise<Row> {
  const { privateKey, publicKey } = await generateKeyPair(ALG, { modulusLength: 2048, extractable: true });
  return { kid, private_jwk: await exportJWK(privateKey), public_jwk: publicJwk(await exportJWK(publicKey), kid) };
}

async function loadRows(db: Executor): Promise<Row[]> {
  return (await listSigningKeys(db)).map((k) => ({ kid: k.kid, private_jwk: k.privateJwk, public_jwk: k.publicJwk }));
}

async function fromRows(rows: Row[]): Promise<SigningKeySet> {
  // Sign with the newest generated key; verify with all of them.
  const generation = (r: Row) => Number(r.kid.slice(GENERATED_KID_PREFIX.length));
  const generated = rows.filter((r) => r.kid.startsWith(GENERATED_KID_PREFIX));
  const active = generated.sort((a, b) => generation(a) - generation(b)).at(-1)!;
  const verifiers = new Map<string, KeyLike>();
  for (const r of rows) verifiers.set(r.kid, (await importJWK(publicJwk(r.public_jwk, r.kid), ALG)) as KeyLike);
  return {
    kid: active.kid,
    privateKey: (await importJWK({ ...active.private_jwk, alg: ALG }, ALG)) as KeyLike,
    verifiers,
    jwks: rows.map((r) => publicJwk(r.public_jwk, r.kid)),
  };
}

async function loadOrCreate(db: Executor): Promise<SigningKeySet> {
  let rows = await loadRows(db);
  if (!rows.some((r) => r.kid.startsWith(GENERATED_KID_PREFIX))) {
    const row = await generateRow(FIRST_GENERATED_KID);
    await insertSigningKeyIfAbsent(db, { kid: row.kid, privateJwk: row.private_jwk, publicJwk: row.public_jwk });
    rows = await loadRows(db);
  }
  return fromRows(rows);
}

/**
 * The RS256 key set of one API process: `JWT_PRIVATE_KEY` (PKCS#8 PEM, kid = its JWK
 * thumbprint) when configured, otherwise the key persisted in `signing_keys`.
 */
export function signingKeys(db: Executor, pem: string | undefined, logger: Logger): SigningKeys {
  let set: Promise<SigningKeySet> | undefined;
  let lastReload = 0;
  const load = () => {
    const loading = (pem ? fromPem(pem) : loadOrCreate(db)).catch((err) => {
      if (set === loading) set = undefined; // a failed load (database down) is retried by the next request
      logger.error({ err }, 'could not load the token signing keys');
      throw errors.unavailable('Token signing keys are unavailable; retry later');
    });
    return (set = loading);
  };
  const current = () => set ?? load();
  return {
    current,
    async verifier(kid) {
      if (!kid) return null;
      const known = (await current()).verifiers.get(kid);
      if (known || pem || Date.now() - lastReload < RELOAD_INTERVAL_MS) return known ?? null;
      lastReload = Date.now();
      return (await load()).verifiers.get(kid) ?? null;
    },
  };
}

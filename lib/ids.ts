import { randomBytes } from 'node:crypto';

// Crockford base32: ids sort by creation time (like ULIDs), which keeps btree inserts
// append-mostly and makes `id` a stable tie-breaker for cursors.
export const ID_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

export function encodeTime(ms: number): string {
  let out = '';
  for (let i = 0; i < 10; i++) {
    out = ID_ALPHABET[ms % 32] + out;
    ms = Math.floor(ms / 32);
  }
  return out;
}

function encodeRandom(bytes: number): string {
  const buf = randomBytes(bytes);
  let out = '';
  for (const b of buf) out += ID_ALPHABET[b & 31];
  return out;
}

export type IdPrefix = 'tkt' | 'ws' | 'kpl' | 'agt' | 'msg' | 'wh' | 'whb' | 'evt' | 'org' | 'key' | 'req' | 'usr' | 'tok' | 'ch' | 'rpl' | 'aut';

/** `tkt_01j…`: 10 time characters then 16 random ones (80 bits). */
export function newId(prefix: IdPrefix, now = Date.now()): string {
  return `${prefix}_${encodeTime(now)}${encodeRandom(16)}`;
}

/** A random secret of `bytes` bytes, base64url, for API keys and signing secrets. */
export function newSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

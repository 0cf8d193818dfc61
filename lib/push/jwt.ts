// The two compact JWTs the push services use, signed and checked with node:crypto:
// RS256 for the Google OAuth2 JWT-bearer assertion (service account key) and ES256 for
// the APNs provider token (.p8 key; the signature is r||s, not DER). The transports sign,
// the local sink verifies.
import { createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

export type JwtAlg = 'RS256' | 'ES256';

const b64url = (buf: Buffer | string) => Buffer.from(buf).toString('base64url');

export function signJwt(alg: JwtAlg, header: Record<string, unknown>, claims: Record<string, unknown>, key: KeyObject): string {
  const input = `${b64url(JSON.stringify({ ...header, alg, typ: 'JWT' }))}.${b64url(JSON.stringify(claims))}`;
  const sig = sign('sha256', Buffer.from(input), alg === 'ES256' ? { key, dsaEncoding: 'ieee-p1363' } : key);
  return `${input}.${b64url(sig)}`;
}

export interface DecodedJwt {
  header: Record<string, unknown>;
  claims: Record<string, unknown>;
  signingInput: string;
  signature: Buffer;
}

/** Splits and parses a compact JWT without checking it; undefined when it is not one. */
export function decodeJwt(token: string): DecodedJwt | undefined {
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  try {
    const header = JSON.parse(Buffer.from(parts[0], 'base64url').toString('utf8'));
    const claims = JSON.parse(Buffer.from(parts[1], 'base64url').toString('utf8'));
    if (!header || typeof header !== 'object' || !claims || typeof claims !== 'object') return undefined;
    return { header, claims, signingInput: `${parts[0]}.${parts[1]}`, signature: Buffer.from(parts[2], 'base64url') };
  } catch {
    return undefined;
  }
}

/** True when `jwt` carries `alg` and a valid signature by the key (a private key works too: its public half is used). */
export function verifyJwtSignature(jwt: DecodedJwt, alg: JwtAlg, key: KeyObject): boolean {
  if (jwt.header.alg !== alg) return false;
  try {
    const pub = key.type === 'public' ? key : createPublicKey(key);
    return verify('sha256', Buffer.from(jwt.signingInput), alg === 'ES256' ? { key: pub, dsaEncoding: 'ieee-p1363' } : pub, jwt.signature);
  } catch {
    return false;
  }
}

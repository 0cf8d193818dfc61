import { randomUUID } from 'node:crypto';
import { SignJWT, decodeProtectedHeader, jwtVerify } from 'jose';
import { ALG, type SigningKeys } from './signing-keys';

/** Access token lifetime from the spec's Limits table. */
export const TOKEN_TTL_SECONDS = 3600;

export interface IssuedToken {
  accessToken: string;
  expiresIn: number;
  tokenType: 'Bearer';
}

/** What a verified token says: the key it was issued for and when it stops being valid. */
export interface TokenClaims {
  keyId: string;
  organizationId: string;
  /** epoch milliseconds */
  expiresAt: number;
}

export async function issueToken(keys: SigningKeys, keyId: string, organizationId: string): Promise<IssuedToken> {
  const { kid, privateKey } = await keys.current();
  const now = Math.floor(Date.now() / 1000);
  const accessToken = await new SignJWT({ org: organizationId })
    .setProtectedHeader({ alg: ALG, kid, typ: 'JWT' })
    .setSubject(keyId)
    .setIssuedAt(now)
    .setExpirationTime(now + TOKEN_TTL_SECONDS)
    .setJti(randomUUID())
    .sign(privateKey);
  return { accessToken, expiresIn: TOKEN_TTL_SECONDS, tokenType: 'Bearer' };
}

/** Three base64url segments: worth handing to jose. Anything else is rejected without parsing. */
export function looksLikeJwt(value: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(value);
}

/**
 * Signature (RS256 only, so `alg: none` or HS256 confusion cannot pass), expiry and the
 * claims we rely on. Returns null for anything that is not a valid token of ours; the
 * caller answers 401 without telling which check failed.
 */
export async function verifyToken(keys: SigningKeys, token: string): Promise<TokenClaims | null> {
  let kid: string | undefined;
  try {
    kid = decodeProtectedHeader(token).kid;
  } catch {
    return null;
  }
  // outside the try: a database outage while loading keys is a 503, not a bad token
  const key = await keys.verifier(kid);
  if (!key) return null;
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: [ALG], requiredClaims: ['sub', 'exp', 'iat', 'jti'] });
    if (typeof payload.org !== 'string' || typeof payload.sub !== 'string' || typeof payload.exp !== 'number') return null;
    return { keyId: payload.sub, organizationId: payload.org, expiresAt: payload.exp * 1000 };
  } catch {
    return null;
  }
}

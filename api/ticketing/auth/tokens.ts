import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { ALG, type SigningKeys } from '../../kit/auth/signing-keys';
import { verifiedPayload } from '../../kit/auth/verified-payload';

/**
 * Access token lifetime from the spec's Limits table. A retired signing key verifies for
 * LONGEST_TOKEN_TTL_SECONDS (api/kit/auth/signing-keys.ts) more: keep that at least this.
 */
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

/**
 * What a valid ticketing access token says; null for anything that is not one (the caller
 * answers 401 without telling which check failed).
 */
export async function verifyToken(keys: SigningKeys, token: string): Promise<TokenClaims | null> {
  const payload = await verifiedPayload(keys, token, { requiredClaims: ['sub', 'exp', 'iat', 'jti'] });
  if (!payload || typeof payload.org !== 'string' || typeof payload.sub !== 'string' || typeof payload.exp !== 'number') return null;
  return { keyId: payload.sub, organizationId: payload.org, expiresAt: payload.exp * 1000 };
}

// Access tokens of the push API: short-lived RS256 JWTs signed with the project's one
// signing-key set (api/kit/auth/signing-keys.ts, appSigningKeys), with their
// own audience so a push token never passes as a ticketing token and the other way round.
// Refresh tokens are opaque random strings stored as SHA-256 (domain/auth/refresh-tokens.ts).
import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { ALG, type SigningKeys } from '../../kit/auth/signing-keys';
import { verifiedPayload } from '../../kit/auth/verified-payload';

export const PUSH_AUDIENCE = 'push-api';
/** 15 minutes: the refresh token renews it. */
export const ACCESS_TOKEN_TTL_SECONDS = 15 * 60;

export interface PushTokenClaims {
  userId: string;
  companyId: string;
  isSuperAdmin: boolean;
}

export async function issueAccessToken(
  keys: SigningKeys,
  claims: PushTokenClaims,
  now = Date.now(),
): Promise<{ accessToken: string; expiresAt: Date }> {
  const { kid, privateKey } = await keys.current();
  const iat = Math.floor(now / 1000);
  const exp = iat + ACCESS_TOKEN_TTL_SECONDS;
  const accessToken = await new SignJWT({ cid: claims.companyId, ...(claims.isSuperAdmin ? { sa: true } : {}) })
    .setProtectedHeader({ alg: ALG, kid, typ: 'JWT' })
    .setAudience(PUSH_AUDIENCE)
    .setSubject(claims.userId)
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .setJti(randomUUID())
    .sign(privateKey);
  return { accessToken, expiresAt: new Date(exp * 1000) };
}

/** The claims of a valid push access token; null for anything else (the caller answers 401). */
export async function verifyAccessToken(keys: SigningKeys, token: string): Promise<PushTokenClaims | null> {
  const payload = await verifiedPayload(keys, token, { audience: PUSH_AUDIENCE, requiredClaims: ['sub', 'exp', 'iat', 'jti', 'aud'] });
  if (!payload || typeof payload.sub !== 'string' || typeof payload.cid !== 'string') return null;
  return { userId: payload.sub, companyId: payload.cid, isSuperAdmin: payload.sa === true };
}

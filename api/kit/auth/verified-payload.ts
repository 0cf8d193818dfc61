// The one check of a JWT signed with the project's signing-key set (signing-keys.ts),
// shared by every API that issues its own tokens from it (ticketing keys, push accounts):
// its shape, its key id, an RS256 signature only (so `alg: none` or HS256 confusion
// cannot pass), expiry, the claims the caller needs and, when given, the caller's
// audience. Each API maps the payload to its own claims.
import { decodeProtectedHeader, jwtVerify, type JWTPayload } from 'jose';
import { ALG, type SigningKeys } from './signing-keys';

/** Three base64url segments: worth handing to jose. Anything else is rejected without parsing. */
export function looksLikeJwt(value: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/.test(value);
}

/**
 * The payload of a valid token, or null for anything that is not one (the caller answers
 * 401 without telling which check failed). A failure to load the keys is thrown: a
 * database outage is a 503, not a bad token.
 */
export async function verifiedPayload(
  keys: SigningKeys,
  token: string,
  o: { requiredClaims: string[]; audience?: string },
): Promise<JWTPayload | null> {
  if (!looksLikeJwt(token)) return null;
  let kid: string | undefined;
  try {
    kid = decodeProtectedHeader(token).kid;
  } catch {
    return null;
  }
  const key = await keys.verifier(kid); // outside the try: see above
  if (!key) return null;
  try {
    const { payload } = await jwtVerify(token, key, { algorithms: [ALG], requiredClaims: o.requiredClaims, ...(o.audience ? { audience: o.audience } : {}) });
    return payload;
  } catch {
    return null;
  }
}

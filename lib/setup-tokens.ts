// Setup tokens (docs/trial-onboarding.md, "Setup tokens"): 256 bits, HMAC-SHA256 of the
// token's id under a key derived from the master key. Only the workflow knows the id and
// only holders of the master key can turn it into the token, so the activity that emails
// a link re-derives it after a crash and the raw token is never stored nor in a history.
// Lookups go by SHA-256 of the token (an indexed equality, as for API keys: 256 bits need
// no slow hash).
import { createHash, createHmac } from 'node:crypto';

/** A purpose-bound key: a leaked setup-token key reveals nothing about other secrets. */
export function setupTokenKey(masterKey: Buffer): Buffer {
  return createHmac('sha256', masterKey).update('push/setup-token/v1').digest();
}

/** The raw token of token `tokenId` (43 base64url characters). */
export function setupTokenOf(key: Buffer, tokenId: string): string {
  return createHmac('sha256', key).update(tokenId).digest('base64url');
}

/** What is stored and looked up: SHA-256 hex of the raw token. */
export function hashSetupToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The link the owner opens: `{APP_URL}/setup-password?token=<raw>`. */
export function setupUrlOf(appUrl: string, token: string): string {
  return `${appUrl}/setup-password?token=${encodeURIComponent(token)}`;
}

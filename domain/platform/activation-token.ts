// Activation links of invited platform users (docs/platform.md, "Users"): as the push
// setup links (lib/setup-tokens.ts), the raw token is an HMAC-SHA256 of the link's id under
// a key derived from the master key. Only the invitation's workflow carries the id, so the
// activity that emails the link re-derives it after a crash, no raw token sits in a
// history or a table, and only a SHA-256 of it is stored (an indexed equality lookup).
import { createHash, createHmac } from 'node:crypto';

/** A link is valid this long after its invitation. */
export const ACTIVATION_LINK_DAYS = 7;

/** A purpose-bound key: a leaked activation key reveals nothing about other secrets. */
export function activationTokenKey(masterKey: Buffer): Buffer {
  return createHmac('sha256', masterKey).update('platform/activation-token/v1').digest();
}

/** The raw token of link `linkId` (43 base64url characters). */
export function activationTokenOf(key: Buffer, linkId: string): string {
  return createHmac('sha256', key).update(linkId).digest('base64url');
}

/** What is stored and looked up: SHA-256 hex of the raw token. */
export function hashActivationToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The link the invitee opens: `{APP_URL}/platform/activate?token=<raw>` (its token goes to POST /platform/v1/users/activate). */
export function activationUrlOf(appUrl: string, token: string): string {
  return `${appUrl}/platform/activate?token=${encodeURIComponent(token)}`;
}

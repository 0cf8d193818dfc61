// Push app API keys: `pk_` + 32 random bytes (base64url). Stored as SHA-256 like the
// ticketing keys (lib/api-keys.ts): 256 random bits need no slow hash, and the lookup on
// every request stays one indexed equality.
import { randomBytes } from 'node:crypto';
import { hashApiKey } from '../api-keys';

export const PUSH_KEY_PREFIX = 'pk_';

export function generatePushApiKey(): { key: string; prefix: string; hash: string } {
  const key = PUSH_KEY_PREFIX + randomBytes(32).toString('base64url');
  return { key, prefix: key.slice(0, PUSH_KEY_PREFIX.length + 8), hash: hashApiKey(key) };
}

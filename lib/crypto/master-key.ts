// The project's master key: the one key from configuration (WEBHOOK_SECRET_KEY, named for
// its first use) that every secret box is sealed with: webhook signing secrets, the token
// signing keys' private halves, push credentials, stored idempotent responses that carry a
// secret; scripts derive the push demo password from it. It never sits in the database;
// losing it makes every sealed value unreadable.
import { scryptSync } from 'node:crypto';
import { checkKey, SECRET_BOX_KEY_BYTES, SecretBoxError } from './secret-box';

/**
 * The scrypt salt of a passphrase, fixed (not per value) so the same passphrase gives the
 * same key on every process. Its text dates from when the key sealed webhook secrets only;
 * changing it would change the key, and every sealed value would be lost.
 */
const PASSPHRASE_SALT = 'game-support/webhook-secrets/v1';

/**
 * The key from a configuration value: `base64:<32 bytes>` is used as is; anything else is a
 * passphrase stretched with scrypt. The passphrase must carry the entropy.
 */
export function masterKeyFromValue(value: string): Buffer {
  if (value.startsWith('base64:')) {
    const key = Buffer.from(value.slice('base64:'.length), 'base64');
    checkKey(key);
    return key;
  }
  if (value.length < 16) throw new SecretBoxError('secret-box passphrase must be at least 16 characters');
  return scryptSync(value, PASSPHRASE_SALT, SECRET_BOX_KEY_BYTES, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
}

const derived = new Map<string, Buffer>();

/**
 * The master key from configuration (WEBHOOK_SECRET_KEY), derived once per process: the
 * scrypt stretch of a passphrase costs ~100 ms.
 */
export function masterKey(config: { webhookSecretKey?: string }): Buffer {
  const value = config.webhookSecretKey;
  if (!value) {
    throw new SecretBoxError('WEBHOOK_SECRET_KEY is not set (scripts/ensure.sh writes one into .data/env; production sets its own)');
  }
  let key = derived.get(value);
  if (!key) derived.set(value, (key = masterKeyFromValue(value)));
  return key;
}

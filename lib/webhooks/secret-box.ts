// Endpoint signing secrets at rest (design principle 6). They cannot be hashed: every
// delivery needs the secret itself to sign. AES-256-GCM with a random 96-bit IV per
// value; the tag makes tampering and a wrong key fail loudly instead of yielding junk.
//
// Format: `v1:<iv>:<tag>:<ciphertext>`, each part base64url. The version prefix lets a
// later key or algorithm change decrypt old rows while writing new ones.
import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const SECRET_BOX_KEY_BYTES = 32;

export class SecretBoxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretBoxError';
  }
}

function checkKey(key: Buffer): void {
  if (!Buffer.isBuffer(key) || key.length !== SECRET_BOX_KEY_BYTES) {
    throw new SecretBoxError(`secret-box key must be ${SECRET_BOX_KEY_BYTES} bytes`);
  }
}

/**
 * `context` (e.g. the endpoint id) is bound as additional authenticated data: a ciphertext
 * copied onto another row then fails to decrypt instead of signing for the wrong endpoint.
 */
export function encryptSecret(key: Buffer, plaintext: string, context = ''): string {
  checkKey(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const parts = [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url'));
  return [VERSION, ...parts].join(':');
}

export function decryptSecret(key: Buffer, box: string, context = ''): string {
  checkKey(key);
  const parts = box.split(':');
  if (parts.length !== 4 || parts[0] !== VERSION) throw new SecretBoxError('unsupported secret-box format');
  const [iv, tag, data] = parts.slice(1).map((p) => Buffer.from(p, 'base64url'));
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new SecretBoxError('malformed secret-box value');
  const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(tag);
  try {
    return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
  } catch {
    // Do not pass on OpenSSL's message; the cause is a wrong key, context or altered value.
    throw new SecretBoxError('secret-box value failed authentication (wrong key or tampered)');
  }
}

/**
 * The key from a configuration value: `base64:<32 bytes>` is used as is; anything else is a
 * passphrase stretched with scrypt. The salt is fixed per purpose (not per value) so the
 * same passphrase gives the same key on every process; the passphrase must carry the entropy.
 */
export function secretBoxKeyFromConfig(value: string, salt = 'game-support/webhook-secrets/v1'): Buffer {
  if (value.startsWith('base64:')) {
    const key = Buffer.from(value.slice('base64:'.length), 'base64');
    checkKey(key);
    return key;
  }
  if (value.length < 16) throw new SecretBoxError('secret-box passphrase must be at least 16 characters');
  return scryptSync(value, salt, SECRET_BOX_KEY_BYTES, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
}

const derived = new Map<string, Buffer>();

/**
 * The key for webhook signing secrets from configuration (WEBHOOK_SECRET_KEY), derived
 * once per process: the scrypt stretch of a passphrase costs ~100 ms.
 */
export function webhookSecretKey(config: { webhookSecretKey?: string }): Buffer {
  const value = config.webhookSecretKey;
  if (!value) {
    throw new SecretBoxError('WEBHOOK_SECRET_KEY is not set (scripts/ensure.sh writes one into .data/env; production sets its own)');
  }
  let key = derived.get(value);
  if (!key) derived.set(value, (key = secretBoxKeyFromConfig(value)));
  return key;
}

// The secret box: values that must be read back (so they cannot be hashed) sealed at rest
// under the master key (lib/crypto/master-key.ts): endpoint signing secrets (every delivery
// signs with the secret itself), the token signing keys' private halves, push credentials
// and stored idempotent responses that carry a secret. AES-256-GCM with a random 96-bit IV
// per value; the tag makes tampering and a wrong key fail loudly instead of yielding junk.
//
// Format: `v1:<iv>:<tag>:<ciphertext>`, each part base64url. The version prefix lets a
// later key or algorithm change decrypt old rows while writing new ones.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

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

/** Throws a SecretBoxError unless `key` is a usable box key (32 bytes). */
export function checkKey(key: Buffer): void {
  if (!Buffer.isBuffer(key) || key.length !== SECRET_BOX_KEY_BYTES) {
    throw new SecretBoxError(`secret-box key must be ${SECRET_BOX_KEY_BYTES} bytes`);
  }
}

/**
 * Seals `plaintext` under `key`. `context` (e.g. the endpoint id) is bound as additional authenticated data: a ciphertext
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

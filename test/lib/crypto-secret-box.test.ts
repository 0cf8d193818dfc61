import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { decryptSecret, encryptSecret, SecretBoxError } from '../../lib/crypto/secret-box';
import { newEndpointSecret } from '../../lib/webhooks/signing';

const key = randomBytes(32);

test('round trip; the stored value is versioned, base64url, and never contains the secret', () => {
  const secret = newEndpointSecret();
  const box = encryptSecret(key, secret);
  assert.match(box, /^v1:[A-Za-z0-9_-]{16}:[A-Za-z0-9_-]{22}:[A-Za-z0-9_-]+$/);
  assert.ok(!box.includes(secret.slice(6)));
  assert.equal(decryptSecret(key, box), secret);
  assert.notEqual(encryptSecret(key, secret), box, 'a fresh IV each time');
  assert.equal(decryptSecret(key, encryptSecret(key, 'ünïcode ✓')), 'ünïcode ✓');
});

test('tampering with any part is detected', () => {
  const box = encryptSecret(key, newEndpointSecret());
  const [v, iv, tag, data] = box.split(':');
  const flip = (s: string) => {
    const b = Buffer.from(s, 'base64url');
    b[0] ^= 1;
    return b.toString('base64url');
  };
  for (const bad of [
    [v, flip(iv), tag, data],
    [v, iv, flip(tag), data],
    [v, iv, tag, flip(data)],
    [v, iv, tag, data.slice(0, -2)],
  ]) {
    assert.throws(() => decryptSecret(key, bad.join(':')), SecretBoxError);
  }
  assert.throws(() => decryptSecret(key, ['v2', iv, tag, data].join(':')), /unsupported secret-box format/);
  assert.throws(() => decryptSecret(key, 'whsec_plaintext'), /unsupported secret-box format/);
  assert.throws(() => decryptSecret(key, [v, iv.slice(4), tag, data].join(':')), /malformed/);
});

test('a wrong key or a different context fails authentication', () => {
  const box = encryptSecret(key, 'whsec_x', 'wh_1');
  assert.equal(decryptSecret(key, box, 'wh_1'), 'whsec_x');
  assert.throws(() => decryptSecret(randomBytes(32), box, 'wh_1'), /failed authentication/);
  assert.throws(() => decryptSecret(key, box, 'wh_2'), /failed authentication/); // copied to another row
  assert.throws(() => decryptSecret(key, box), /failed authentication/);
});

test('keys must be 32 bytes', () => {
  assert.throws(() => encryptSecret(randomBytes(16), 'x'), /32 bytes/);
  assert.throws(() => decryptSecret(Buffer.alloc(0), 'v1:a:b:c'), /32 bytes/);
});

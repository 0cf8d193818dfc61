import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { masterKey, masterKeyFromValue } from '../../lib/crypto/master-key';
import { decryptSecret, encryptSecret, SecretBoxError } from '../../lib/crypto/secret-box';

test('masterKeyFromValue: base64 key as is, passphrase through scrypt (deterministic)', () => {
  const raw = randomBytes(32);
  assert.deepEqual(masterKeyFromValue(`base64:${raw.toString('base64')}`), raw);
  assert.throws(() => masterKeyFromValue(`base64:${randomBytes(16).toString('base64')}`), /32 bytes/);
  const a = masterKeyFromValue('correct horse battery staple');
  assert.equal(a.length, 32);
  assert.deepEqual(masterKeyFromValue('correct horse battery staple'), a);
  assert.notDeepEqual(masterKeyFromValue('correct horse battery stapler'), a);
  assert.throws(() => masterKeyFromValue('short'), /at least 16/);
  assert.equal(decryptSecret(a, encryptSecret(masterKeyFromValue('correct horse battery staple'), 's')), 's');
});

test('masterKey: from WEBHOOK_SECRET_KEY, derived once per value; unset is an error that names the variable', () => {
  const config = { webhookSecretKey: 'a passphrase of enough length' };
  assert.equal(masterKey(config), masterKey({ ...config }), 'the same Buffer: the scrypt stretch runs once');
  assert.deepEqual(masterKey(config), masterKeyFromValue(config.webhookSecretKey));
  assert.throws(() => masterKey({}), (err: unknown) => err instanceof SecretBoxError && /WEBHOOK_SECRET_KEY is not set/.test(err.message));
});

// The RS256 signing keys at rest and their rotation: the private half never sits in
// signing_keys in the clear (a migration converts old rows), a new kid signs after a
// rotation while the old one verifies until its tokens have expired. Its own database:
// a rotation must not change the keys the other tests sign with.
import assert from 'node:assert/strict';
import { decodeProtectedHeader, exportJWK, generateKeyPair } from 'jose';
import { masterKey } from '../../lib/crypto/master-key';
import { openPrivateJwk, retiredKeyGraceMs, rotateSigningKey } from '../../api/kit/auth/signing-keys';
import { SigningKeysEncrypted1732170000001 } from '../../db/migrations/1732170000001-SigningKeysEncrypted';
import { connectDb, type Db } from '../../db/db';
import { loadConfig } from '../../lib/config';
import { startApi, type TestApi } from '../support/api';
import { accessToken } from '../support/auth-factories';
import { createApiKey, createOrganization, type Key, type Org } from '../support/factories';
import { throwawayDatabase, type ThrowawayDb } from '../support/throwaway-db';

const boxKey = () => masterKey(loadConfig());
const kidOf = (token: string) => decodeProtectedHeader(token).kid!;

describe('token signing keys at rest and their rotation', () => {
  let tdb: ThrowawayDb;
  let db: Db;
  const apis: TestApi[] = [];
  let org: Org;
  let key: Key;
  // a fresh API process: nothing loaded yet
  const freshApi = async () => {
    const api = await startApi({ DATABASE_URL: tdb.url });
    apis.push(api);
    return api;
  };
  const me = (api: TestApi, token: string) => api.request('GET', '/v1/auth/me', { token });

  beforeAll(async () => {
    tdb = await throwawayDatabase('support_signing');
    // a database from before the encryption, with a key stored in the clear
    await tdb.migrate(SigningKeysEncrypted1732170000001);
    db = await connectDb(tdb.url, 2);
    const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
    const pub = { ...(await exportJWK(publicKey)), kid: 'ticketing-rs256-1', alg: 'RS256', use: 'sig' };
    await db.query('INSERT INTO signing_keys (kid, private_jwk, public_jwk) VALUES ($1, $2, $3)', [
      'ticketing-rs256-1',
      JSON.stringify(await exportJWK(privateKey)),
      JSON.stringify(pub),
    ]);
    await tdb.migrate();
    org = await createOrganization(db);
    key = await createApiKey(db, org, { scopes: ['admin:all'] });
  });
  afterAll(async () => {
    for (const api of apis) await api.stop();
    await db?.close();
    await tdb?.drop();
  });

  it('keeps no private key material readable in signing_keys; the migrated key still signs', async () => {
    const api = await freshApi();
    const token = await accessToken(api, key, org);
    assert.equal(kidOf(token), 'ticketing-rs256-1', 'the key from before the migration signs');
    assert.equal((await me(api, token)).status, 200);

    const { rows } = await db.query('SELECT * FROM signing_keys');
    assert.equal(rows.length, 1);
    assert.deepEqual(Object.keys(rows[0]).sort(), ['created_at', 'kid', 'private_key_box', 'public_jwk']);
    const priv = openPrivateJwk(boxKey(), rows[0].kid, rows[0].private_key_box);
    const dump = JSON.stringify(rows);
    for (const part of ['d', 'p', 'q', 'dp', 'dq', 'qi'] as const) {
      assert.ok(typeof priv[part] === 'string' && priv[part]!.length > 20, part);
      assert.equal(dump.includes(priv[part]!), false, `private ${part} readable in the table`);
    }
    assert.deepEqual(Object.keys(rows[0].public_jwk).sort(), ['alg', 'e', 'kid', 'kty', 'n', 'use']);
    assert.match(rows[0].private_key_box, /^v1:/);
    // the box is bound to its row: copied under another kid it does not open
    assert.throws(() => openPrivateJwk(boxKey(), 'ticketing-rs256-2', rows[0].private_key_box), /failed authentication/);
    // and the key of the box is not in the database
    assert.equal(dump.includes(boxKey().toString('base64')), false);
  });

  it('a rotation: the new kid signs, the old one verifies until its tokens have expired', async () => {
    const running = await freshApi();
    const oldToken = await accessToken(running, key, org);
    assert.equal(kidOf(oldToken), 'ticketing-rs256-1');

    const rotated = await rotateSigningKey(db, boxKey());
    assert.deepEqual(rotated, { kid: 'ticketing-rs256-2', deleted: [] });

    // a process started after the rotation signs with the new key and still accepts the old tokens
    const after = await freshApi();
    const newToken = await accessToken(after, key, org);
    assert.equal(kidOf(newToken), 'ticketing-rs256-2');
    assert.equal((await me(after, oldToken)).status, 200);
    // one that loaded the keys before learns the new kid from the table on first sight
    assert.equal((await me(running, newToken)).status, 200);
    const jwks = (await after.request('GET', '/v1/.well-known/jwks.json')).body.keys.map((k: { kid: string }) => k.kid);
    assert.deepEqual(jwks.sort(), ['ticketing-rs256-1', 'ticketing-rs256-2']);

    // once the old key's tokens have all expired (the successor is older than the grace), it verifies no more
    const age = (kid: string, secs: number) =>
      db.query('UPDATE signing_keys SET created_at = now() - make_interval(secs => $2) WHERE kid = $1', [kid, secs]);
    await age('ticketing-rs256-1', retiredKeyGraceMs() / 1000 + 600);
    await age('ticketing-rs256-2', retiredKeyGraceMs() / 1000 + 60);
    const later = await freshApi();
    assert.equal((await me(later, oldToken)).status, 401, 'the retired key verifies no more');
    assert.equal((await me(later, newToken)).status, 200);
    const jwksLater = (await later.request('GET', '/v1/.well-known/jwks.json')).body.keys.map((k: { kid: string }) => k.kid);
    assert.deepEqual(jwksLater, ['ticketing-rs256-2']);

    // the next rotation deletes the key that retired past its grace
    assert.deepEqual(await rotateSigningKey(db, boxKey()), { kid: 'ticketing-rs256-3', deleted: ['ticketing-rs256-1'] });
  });

  it('the migration refuses to run, saying why, when clear keys exist and no secret-box key is configured', async () => {
    const other = await throwawayDatabase('support_signing_nokey');
    const saved = process.env.WEBHOOK_SECRET_KEY;
    try {
      await other.migrate(SigningKeysEncrypted1732170000001);
      const odb = await connectDb(other.url, 1);
      await odb.query(`INSERT INTO signing_keys (kid, private_jwk, public_jwk) VALUES ('ticketing-rs256-1', '{"d":"x"}', '{}')`);
      await odb.close();
      delete process.env.WEBHOOK_SECRET_KEY;
      await assert.rejects(other.migrate(), /signing_keys holds 1 private key\(s\) to encrypt, but the secret-box key is not configured: set WEBHOOK_SECRET_KEY/);
    } finally {
      process.env.WEBHOOK_SECRET_KEY = saved;
      await other.drop();
    }
  });
});

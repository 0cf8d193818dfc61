// The credential validators the app config endpoints use, and the demo credentials.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CredentialError, parseApnsConfig, parseApnsKey, parseFcmServiceAccount } from '../../lib/push/credentials';
import { demoCredentials, generateDemoCredentials } from '../../lib/push/demo-credentials';

const good = generateDemoCredentials();
const goodSa = JSON.parse(good.serviceAccountJson) as Record<string, unknown>;
const pem = (k: { export(o: object): string | Buffer }) => k.export({ type: 'pkcs8', format: 'pem' }).toString();

function refused(fn: () => unknown, field: string, detail: RegExp) {
  assert.throws(fn, (err: unknown) => {
    assert.ok(err instanceof CredentialError, String(err));
    assert.equal(err.field, field);
    assert.match(err.detail, detail);
    return true;
  });
}

test('a service account file parses, as a string or an object', () => {
  for (const input of [good.serviceAccountJson, goodSa]) {
    const sa = parseFcmServiceAccount(input);
    assert.equal(sa.projectId, 'demo-push-local');
    assert.equal(sa.clientEmail, 'push-demo@demo-push-local.iam.gserviceaccount.com');
    assert.match(sa.privateKey, /BEGIN PRIVATE KEY/);
    assert.equal(sa.tokenUri, 'https://oauth2.googleapis.com/token');
  }
});

test('bad service accounts are refused naming serviceAccountJson and what is wrong', () => {
  const with_ = (patch: Record<string, unknown>) => JSON.stringify({ ...goodSa, ...patch });
  refused(() => parseFcmServiceAccount('{not json'), 'serviceAccountJson', /not valid JSON/);
  refused(() => parseFcmServiceAccount('[1,2]'), 'serviceAccountJson', /JSON object/);
  refused(() => parseFcmServiceAccount(with_({ type: 'authorized_user' })), 'serviceAccountJson', /type/);
  refused(() => parseFcmServiceAccount(with_({ project_id: undefined })), 'serviceAccountJson', /project_id is missing/);
  refused(() => parseFcmServiceAccount(with_({ project_id: 'Bad Project!' })), 'serviceAccountJson', /project_id/);
  refused(() => parseFcmServiceAccount(with_({ project_id: 42 })), 'serviceAccountJson', /project_id must be a string/);
  refused(() => parseFcmServiceAccount(with_({ client_email: undefined })), 'serviceAccountJson', /client_email is missing/);
  refused(() => parseFcmServiceAccount(with_({ client_email: 'nobody' })), 'serviceAccountJson', /client_email/);
  refused(() => parseFcmServiceAccount(with_({ private_key: undefined })), 'serviceAccountJson', /private_key is missing/);
  refused(() => parseFcmServiceAccount(with_({ private_key: 'not a key' })), 'serviceAccountJson', /private_key is not a PEM/);
  const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey;
  refused(() => parseFcmServiceAccount(with_({ private_key: pem(ec) })), 'serviceAccountJson', /RSA/);
  const small = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey;
  refused(() => parseFcmServiceAccount(with_({ private_key: pem(small) })), 'serviceAccountJson', /2048/);
  refused(() => parseFcmServiceAccount(with_({ token_uri: 'http://evil.example.com/token' })), 'serviceAccountJson', /token_uri/);
});

test('an APNs .p8 key must be an EC P-256 private key', () => {
  assert.equal(parseApnsKey(good.apns.p8KeyContent).asymmetricKeyDetails?.namedCurve, 'prime256v1');
  // pasted without the armour lines
  const body = good.apns.p8KeyContent.split('\n').filter((l) => l && !l.startsWith('-----')).join('');
  assert.equal(parseApnsKey(body).asymmetricKeyType, 'ec');
  const p384 = generateKeyPairSync('ec', { namedCurve: 'secp384r1' }).privateKey;
  refused(() => parseApnsKey(pem(p384)), 'p8KeyContent', /P-256/);
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
  refused(() => parseApnsKey(pem(rsa)), 'p8KeyContent', /P-256/);
  const ed = generateKeyPairSync('ed25519').privateKey;
  refused(() => parseApnsKey(pem(ed)), 'p8KeyContent', /P-256/);
  refused(() => parseApnsKey('garbage'), 'p8KeyContent', /PEM/);
  refused(() => parseApnsKey(''), 'p8KeyContent', /empty/);
  const publicOnly = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
  refused(() => parseApnsKey(publicOnly), 'p8KeyContent', /PEM private key/);
});

test('the apns-config body: ids, bundle id, key and environment', () => {
  const cfg = parseApnsConfig({ ...good.apns });
  assert.deepEqual(cfg, { ...good.apns });
  assert.equal(parseApnsConfig({ ...good.apns, useSandbox: undefined }).useSandbox, false);
  refused(() => parseApnsConfig({ ...good.apns, keyId: 'short' }), 'keyId', /10-character/);
  refused(() => parseApnsConfig({ ...good.apns, teamId: 'lowercase01' }), 'teamId', /10-character/);
  refused(() => parseApnsConfig({ ...good.apns, bundleId: 'nodots' }), 'bundleId', /bundle id/);
  refused(() => parseApnsConfig({ ...good.apns, p8KeyContent: 7 }), 'p8KeyContent', /string/);
  refused(() => parseApnsConfig({ ...good.apns, useSandbox: 'yes' }), 'useSandbox', /boolean/);
});

test('demo credentials are made once per file and pass the validators', () => {
  const dir = mkdtempSync(join(tmpdir(), 'push-demo-'));
  try {
    const file = join(dir, 'nested', 'demo.json');
    const a = demoCredentials(file);
    const b = demoCredentials(file);
    assert.deepEqual(a, b);
    parseFcmServiceAccount(a.serviceAccountJson);
    parseApnsConfig(a.apns);
    assert.notDeepEqual(demoCredentials(join(dir, 'other.json')).apns.p8KeyContent, a.apns.p8KeyContent);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

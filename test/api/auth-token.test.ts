import assert from 'node:assert/strict';
import { createLocalJWKSet, decodeJwt, decodeProtectedHeader, importJWK, jwtVerify, SignJWT } from 'jose';
import { authCacheStats } from '../../api/ticketing/auth';
import { openPrivateJwk } from '../../api/kit/auth/signing-keys';
import { masterKey } from '../../lib/crypto/master-key';
import { startApi, type TestApi } from '../support/api';
import { createApiKey, createOrganization } from '../support/factories';
import { accessToken, createAuthTenant, errorCode, requestToken, revokeKeyDaysAgo } from '../support/auth-factories';

describe('POST /v1/auth/token and bearer authentication', () => {
  let api: TestApi;
  let other: TestApi; // a second API "process" on the same database and Redis
  let t: Awaited<ReturnType<typeof createAuthTenant>>;

  beforeAll(async () => {
    api = await startApi();
    other = await startApi();
    t = await createAuthTenant(api.deps.db);
  });
  afterAll(async () => {
    await api?.stop();
    await other?.stop();
  });

  it('issues an RS256 token for a server key that works as the bearer', async () => {
    const res = await requestToken(api, t.admin.key, t.org.id);
    assert.equal(res.status, 200);
    assert.deepEqual(Object.keys(res.body).sort(), ['accessToken', 'expiresIn', 'tokenType']);
    assert.equal(res.body.expiresIn, 3600);
    assert.equal(res.body.tokenType, 'Bearer');
    assert.equal(res.headers.get('x-ratelimit-limit'), '3000');

    const header = decodeProtectedHeader(res.body.accessToken);
    assert.equal(header.alg, 'RS256');
    assert.ok(header.kid);
    const claims = decodeJwt(res.body.accessToken);
    assert.equal(claims.sub, t.admin.id);
    assert.equal(claims.org, t.org.id);
    assert.equal(claims.exp! - claims.iat!, 3600);
    assert.ok(claims.jti);

    const me = await api.request('GET', '/v1/auth/me', { token: res.body.accessToken });
    assert.equal(me.status, 200);
    assert.equal(me.body.id, t.admin.id);
    assert.equal(me.body.organizationId, t.org.id);
    assert.equal(me.body.type, 'server');
    assert.deepEqual(me.body.scopes, ['admin:all']);
    assert.ok(me.body.lastUsedAt, 'the token request counts as a use of the key');
    assert.ok(!Number.isNaN(Date.parse(me.body.createdAt)));
    assert.equal(me.body.key, undefined);
    assert.equal(JSON.stringify(me.body).includes(t.admin.key), false);
  });

  it('accepts test keys, and keys sent directly as the bearer', async () => {
    const token = await accessToken(api, t.testAdmin, t.org);
    assert.equal((await api.request('GET', '/v1/auth/me', { token })).body.id, t.testAdmin.id);
    for (const key of [t.admin, t.testAdmin, t.sdk]) {
      const me = await api.request('GET', '/v1/auth/me', { token: key.key });
      assert.equal(me.status, 200, key.key.slice(0, 8));
      assert.equal(me.body.id, key.id);
    }
  });

  it('a token issued by one API process verifies on another (one shared signing key)', async () => {
    const token = await accessToken(api, t.admin, t.org);
    const me = await other.request('GET', '/v1/auth/me', { token });
    assert.equal(me.status, 200);
    const [a, b] = await Promise.all([api.request('GET', '/v1/.well-known/jwks.json'), other.request('GET', '/v1/.well-known/jwks.json')]);
    assert.deepEqual(a.body, b.body);
  });

  it('publishes a JWKS that verifies the token with jose', async () => {
    const token = await accessToken(api, t.admin, t.org);
    const jwks = await api.request('GET', '/v1/.well-known/jwks.json');
    assert.equal(jwks.status, 200);
    assert.ok(jwks.body.keys.length >= 1);
    for (const k of jwks.body.keys) assert.equal(k.d, undefined, 'no private parts');
    const { payload, protectedHeader } = await jwtVerify(token, createLocalJWKSet(jwks.body), { algorithms: ['RS256'] });
    assert.equal(payload.sub, t.admin.id);
    assert.ok(jwks.body.keys.some((k: any) => k.kid === protectedHeader.kid));
  });

  it('refuses a key of another organization, a revoked key and garbage with 401', async () => {
    const stranger = await createOrganization(api.deps.db);
    const wrongOrg = await requestToken(api, t.admin.key, stranger.id);
    assert.equal(wrongOrg.status, 401);
    assert.equal(errorCode(wrongOrg), 'unauthorized');
    assert.match(wrongOrg.body.error.requestId, /^req_/);
    assert.equal(wrongOrg.body.error.status, 401);

    const revoked = await createApiKey(api.deps.db, t.org, { kind: 'sk_live_' });
    await revokeKeyDaysAgo(api.deps.db, revoked.id, 0);
    assert.equal((await requestToken(api, revoked.key, t.org.id)).status, 401);

    for (const garbage of ['sk_live_nope', 'sk_test_' + 'x'.repeat(43), 'not-a-key', 'x'.repeat(512)]) {
      const res = await requestToken(api, garbage, t.org.id);
      assert.equal(res.status, 401, garbage.slice(0, 12));
      assert.equal(errorCode(res), 'unauthorized');
    }
  });

  it('refuses sdk keys at the token endpoint with 400 (they are used directly)', async () => {
    const res = await requestToken(api, t.sdk.key, t.org.id);
    assert.equal(res.status, 400);
    assert.equal(errorCode(res), 'validation_error');
    assert.match(res.body.error.message, /sdk keys/);
  });

  it('answers malformed token requests with 400 validation_error', async () => {
    const cases: Array<[string, unknown]> = [
      ['missing fields', {}],
      ['missing organizationId', { apiKey: t.admin.key }],
      ['wrong types', { apiKey: 42, organizationId: ['x'] }],
      ['empty strings', { apiKey: '', organizationId: '' }],
      ['array body', [1, 2]],
    ];
    for (const [name, body] of cases) {
      const res = await api.request('POST', '/v1/auth/token', { body });
      assert.equal(res.status, 400, name);
      assert.equal(errorCode(res), 'validation_error', name);
    }
    const badJson = await api.request('POST', '/v1/auth/token', { rawBody: '{"apiKey":' });
    assert.equal(badJson.status, 400);
    assert.equal(errorCode(badJson), 'validation_error');
    const noBody = await api.request('POST', '/v1/auth/token');
    assert.equal(noBody.status, 400);
  });

  it('401s missing, malformed, tampered, foreign and expired bearer credentials', async () => {
    const token = await accessToken(api, t.admin, t.org);
    const [h, p, s] = token.split('.');
    const claims = decodeJwt(token);
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...claims, org: 'org_other' })).toString('base64url')}.${s}`;

    // a token signed with our own key but already expired
    const { kid } = decodeProtectedHeader(token);
    const { rows } = await api.deps.db.query('SELECT kid, private_key_box FROM signing_keys WHERE kid = $1', [kid]);
    const priv = await importJWK({ ...openPrivateJwk(masterKey(api.deps.config), kid!, rows[0].private_key_box), alg: 'RS256' }, 'RS256');
    const now = Math.floor(Date.now() / 1000);
    const expired = await new SignJWT({ org: t.org.id })
      .setProtectedHeader({ alg: 'RS256', kid: rows[0].kid })
      .setSubject(t.admin.id)
      .setIssuedAt(now - 7200)
      .setExpirationTime(now - 3600)
      .setJti('x')
      .sign(priv);
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${p}.`;

    const attempts: Array<[string, Record<string, string>]> = [
      ['no header', {}],
      ['basic scheme', { authorization: `Basic ${Buffer.from('a:b').toString('base64')}` }],
      ['empty bearer', { authorization: 'Bearer ' }],
      ['garbage', { authorization: 'Bearer abc.def' }],
      ['unknown key', { authorization: 'Bearer sk_live_unknownunknown' }],
      ['tampered payload', { authorization: `Bearer ${forged}` }],
      ['tampered signature', { authorization: `Bearer ${h}.${p}.${s.slice(0, -4)}AAAA` }],
      ['alg none', { authorization: `Bearer ${unsigned}` }],
      ['expired', { authorization: `Bearer ${expired}` }],
      ['huge', { authorization: `Bearer ${'a'.repeat(5000)}` }],
    ];
    for (const [name, headers] of attempts) {
      const res = await api.request('GET', '/v1/auth/me', { headers });
      assert.equal(res.status, 401, name);
      assert.equal(errorCode(res), 'unauthorized', name);
    }
  });

  it('serves repeated tokens and keys from the in-process caches', async () => {
    const token = await accessToken(api, t.admin, t.org);
    await api.request('GET', '/v1/auth/me', { token });
    const before = authCacheStats();
    for (let i = 0; i < 5; i++) assert.equal((await api.request('GET', '/v1/auth/me', { token })).status, 200);
    const afterStats = authCacheStats();
    assert.ok(afterStats.tokens.hits - before.tokens.hits >= 5);
    assert.ok(afterStats.keys.hits - before.keys.hits >= 5);
    assert.ok(afterStats.tokens.size >= 1);
  });
});

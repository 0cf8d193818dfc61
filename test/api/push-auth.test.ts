// Accounts over HTTP: register, login, refresh (rotation, reuse revokes the family), me.
import assert from 'node:assert/strict';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import type { TestApi } from '../support/api';
import { assertPushError, bearer, registerAccount, startPushApi, uniqueEmail } from '../support/push';
import { expireRefreshTokens } from '../support/push-account-factories';

describe('push accounts', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startPushApi();
  });
  afterAll(async () => api?.stop());

  it('registers (201): an auth result, a company of one with its owner, the password stored as argon2id', async () => {
    const email = uniqueEmail('reg');
    const res = await api.request('POST', '/api/v1/auth/register', {
      body: { email: email.toUpperCase(), password: 'correct horse battery', name: 'Robin' },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.headers.get('cache-control'), 'no-store');
    const { accessToken, refreshToken, expiresAt, user } = res.body;
    assert.equal(user.email, email, 'stored lower-cased');
    assert.equal(user.name, 'Robin');
    assert.match(user.id, /^[0-9a-f-]{36}$/);
    assert.ok(!Number.isNaN(Date.parse(user.createdAt)));
    assert.match(refreshToken, /^prt_/);
    const claims = decodeJwt(accessToken);
    assert.equal(decodeProtectedHeader(accessToken).alg, 'RS256');
    assert.equal(claims.aud, 'push-api');
    assert.equal(claims.sub, user.id);
    assert.equal(new Date(expiresAt).getTime(), (claims.exp as number) * 1000);
    assert.equal((claims.exp as number) - (claims.iat as number), 900);

    const { rows } = await api.deps.db.query(
      `SELECT u.password_hash, m.role, c.status, c.id = $2 AS same_company
         FROM push_users u JOIN push_memberships m ON m.user_id = u.id JOIN push_companies c ON c.id = m.company_id
        WHERE u.id = $1`,
      [user.id, claims.cid],
    );
    assert.equal(rows.length, 1);
    assert.match(rows[0].password_hash, /^\$argon2id\$/);
    assert.equal(rows[0].role, 'owner');
    assert.equal(rows[0].status, 'active');
    assert.equal(rows[0].same_company, true);
    const stored = await api.deps.db.query(`SELECT token_hash FROM push_refresh_tokens WHERE user_id = $1`, [user.id]);
    assert.equal(stored.rows.length, 1);
    assert.notEqual(stored.rows[0].token_hash, refreshToken, 'refresh tokens are stored hashed');
  });

  it('refuses a duplicate email (any case) with 409 CONFLICT, and bad input with 400 naming the fields', async () => {
    const a = await registerAccount(api);
    const dup = await api.request('POST', '/api/v1/auth/register', {
      body: { email: a.email.toUpperCase(), password: 'another password', name: 'Other' },
    });
    assertPushError(dup, 409, 'CONFLICT');
    const bad = await api.request('POST', '/api/v1/auth/register', { body: { email: 'not-an-email', password: 'short' } });
    assertPushError(bad, 400, 'VALIDATION_FAILED');
    assert.ok(bad.body.errors.email && bad.body.errors.password && bad.body.errors.name, JSON.stringify(bad.body));
  });

  it('logs in; a wrong password and an unknown email get the same 401', async () => {
    const a = await registerAccount(api);
    const ok = await api.request('POST', '/api/v1/auth/login', { body: { email: a.email, password: a.password } });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.user.id, a.userId);
    assert.notEqual(ok.body.refreshToken, a.refreshToken);

    const wrong = await api.request('POST', '/api/v1/auth/login', { body: { email: a.email, password: 'wrong password' } });
    const unknown = await api.request('POST', '/api/v1/auth/login', { body: { email: uniqueEmail('nobody'), password: 'wrong password' } });
    assertPushError(wrong, 401, 'UNAUTHORIZED');
    assertPushError(unknown, 401, 'UNAUTHORIZED');
    assert.deepEqual(wrong.body, unknown.body);
  });

  it('GET /auth/me answers the user of a bearer token; no token, a bad one or a ticketing-shaped one are 401', async () => {
    const a = await registerAccount(api);
    const me = await api.request('GET', '/api/v1/auth/me', { headers: bearer(a.accessToken) });
    assert.equal(me.status, 200);
    assert.deepEqual(Object.keys(me.body).sort(), ['createdAt', 'email', 'id', 'name']);
    assert.equal(me.body.id, a.userId);
    assert.ok(me.headers.get('x-ratelimit-limit'));

    assertPushError(await api.request('GET', '/api/v1/auth/me'), 401, 'UNAUTHORIZED');
    assertPushError(await api.request('GET', '/api/v1/auth/me', { headers: bearer('nope') }), 401, 'UNAUTHORIZED');
    assertPushError(await api.request('GET', '/api/v1/auth/me', { headers: bearer(a.refreshToken) }), 401, 'UNAUTHORIZED');
    // a refresh token or a tampered token is no access token
    const [h, p] = a.accessToken.split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify({ ...decodeJwt(a.accessToken), sub: '00000000-0000-4000-8000-000000000000' })).toString('base64url')}.${a.accessToken.split('.')[2]}`;
    assert.notEqual(p, forged.split('.')[1]);
    assertPushError(await api.request('GET', '/api/v1/auth/me', { headers: bearer(forged) }), 401, 'UNAUTHORIZED');
  });

  it('the push access token is not a ticketing token', async () => {
    const a = await registerAccount(api);
    const res = await api.request('GET', '/v1/auth/me', { token: a.accessToken });
    assert.equal(res.status, 401);
  });

  it('refresh rotates: the new pair works, the old refresh token once more revokes the whole family', async () => {
    const a = await registerAccount(api);
    const r1 = await api.request('POST', '/api/v1/auth/refresh', { body: { refreshToken: a.refreshToken } });
    assert.equal(r1.status, 200, JSON.stringify(r1.body));
    assert.notEqual(r1.body.refreshToken, a.refreshToken);
    assert.equal(r1.body.user.id, a.userId);
    assert.equal((await api.request('GET', '/api/v1/auth/me', { headers: bearer(r1.body.accessToken) })).status, 200);

    // a second, independent login: another family, untouched by the reuse below
    const other = await api.request('POST', '/api/v1/auth/login', { body: { email: a.email, password: a.password } });

    const reuse = await api.request('POST', '/api/v1/auth/refresh', { body: { refreshToken: a.refreshToken } });
    assertPushError(reuse, 401, 'UNAUTHORIZED');
    // the family's newest token was revoked with it
    assertPushError(await api.request('POST', '/api/v1/auth/refresh', { body: { refreshToken: r1.body.refreshToken } }), 401, 'UNAUTHORIZED');
    const otherRefresh = await api.request('POST', '/api/v1/auth/refresh', { body: { refreshToken: other.body.refreshToken } });
    assert.equal(otherRefresh.status, 200, 'another family stays valid');

    assertPushError(await api.request('POST', '/api/v1/auth/refresh', { body: { refreshToken: 'prt_unknown' } }), 401, 'UNAUTHORIZED');
    assertPushError(await api.request('POST', '/api/v1/auth/refresh', { body: {} }), 400, 'VALIDATION_FAILED');
  });

  it('an expired refresh token is a 401', async () => {
    const a = await registerAccount(api);
    await expireRefreshTokens(api.deps.db, a.userId);
    assertPushError(await api.request('POST', '/api/v1/auth/refresh', { body: { refreshToken: a.refreshToken } }), 401, 'UNAUTHORIZED');
  });

  it('replays an auth result for the same Idempotency-Key, stored sealed', async () => {
    const email = uniqueEmail('idem');
    const key = `reg-${email}`;
    const body = { email, password: 'correct horse battery', name: 'Robin' };
    const first = await api.request('POST', '/api/v1/auth/register', { body, headers: { 'Idempotency-Key': key } });
    assert.equal(first.status, 201);
    const again = await api.request('POST', '/api/v1/auth/register', { body, headers: { 'Idempotency-Key': key } });
    assert.equal(again.status, 201);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(again.body, first.body);
    const { rows } = await api.deps.db.query(`SELECT response::text AS r FROM idempotency_keys WHERE key = $1`, [key]);
    assert.equal(rows.length, 1);
    assert.ok(!rows[0].r.includes(first.body.refreshToken) && !rows[0].r.includes(first.body.accessToken), 'sealed at rest');
  });
});

// Failed authentication is throttled per client IP (docs/auth.md): after the configured
// number of wrong keys in a rolling minute, the address gets 429 — even for a right key —
// while other addresses are unaffected. The address is the socket's; X-Forwarded-For
// counts only from TRUSTED_PROXIES. Each test connects from its own loopback address
// (127.x.y.z) so that no other test's failures count against it.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { randomInt } from 'node:crypto';
import { startApi, type TestApi } from '../support/api';
import { createAuthTenant, revokeKeyDaysAgo } from '../support/auth-factories';
import { createApiKey, createOrganization } from '../support/factories';

const LIMIT = 3;
const freshLoopback = () => `127.${randomInt(1, 255)}.${randomInt(0, 255)}.${randomInt(1, 255)}`;
const freshPublicIp = () => `198.51.${randomInt(0, 255)}.${randomInt(1, 255)}`;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
}

/** POST /v1/auth/token from the local address `from`, with optional extra headers. */
function exchange(api: TestApi, from: string, body: object, headers: Record<string, string> = {}): Promise<Answer> {
  const url = new URL('/v1/auth/token', api.baseUrl);
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', localAddress: from, agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), ...headers } },
      (res) => {
        let text = '';
        res.on('data', (d) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(text) }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

describe('failed authentication throttled per IP', () => {
  let api: TestApi;
  let behindProxy: TestApi;
  let t: Awaited<ReturnType<typeof createAuthTenant>>;
  const good = () => ({ apiKey: t.admin.key, organizationId: t.org.id });

  beforeAll(async () => {
    api = await startApi({ RATE_LIMITS: `auth-failures=${LIMIT}`, TRUSTED_PROXIES: '' });
    behindProxy = await startApi({ RATE_LIMITS: `auth-failures=${LIMIT}`, TRUSTED_PROXIES: '127.0.0.0/8' });
    t = await createAuthTenant(api.deps.db);
  });
  afterAll(async () => {
    await api?.stop();
    await behindProxy?.stop();
  });

  it('answers unknown, malformed, revoked and foreign keys alike, then 429s the address, right key included', async () => {
    const other = await createOrganization(api.deps.db);
    const revoked = await createApiKey(api.deps.db, t.org, { scopes: ['admin:all'] });
    await revokeKeyDaysAgo(api.deps.db, revoked.id, 0);
    const from = freshLoopback();
    const wrong = [
      { apiKey: `sk_live_${'x'.repeat(43)}`, organizationId: t.org.id }, // unknown
      { apiKey: 'not-a-key-at-all', organizationId: t.org.id }, // malformed
      { apiKey: t.admin.key, organizationId: other.id }, // another organization's
    ];
    const answers = [];
    for (const body of wrong) answers.push(await exchange(api, from, body));
    for (const a of answers) {
      assert.equal(a.status, 401);
      assert.deepEqual({ ...a.body.error, requestId: 'x' }, { ...answers[0].body.error, requestId: 'x' });
    }
    // the limit is used up: the right key from that address is refused too, with Retry-After
    const blocked = await exchange(api, from, good());
    assert.equal(blocked.status, 429, JSON.stringify(blocked.body));
    assert.equal(blocked.body.error.code, 'rate_limit_exceeded');
    const retryAfter = Number(blocked.headers['retry-after']);
    assert.ok(retryAfter >= 1 && retryAfter <= 60, String(retryAfter));
    // another address is not affected; a revoked key from there counts like the others
    const elsewhere = freshLoopback();
    assert.equal((await exchange(api, elsewhere, good())).status, 200);
    const rev = await exchange(api, elsewhere, { apiKey: revoked.key, organizationId: t.org.id });
    assert.equal(rev.status, 401);
    assert.equal(rev.body.error.message, answers[0].body.error.message);
  });

  it('successes do not count', async () => {
    const from = freshLoopback();
    for (let i = 0; i < LIMIT + 2; i++) assert.equal((await exchange(api, from, good())).status, 200);
  });

  it('keys on the socket address: X-Forwarded-For from an untrusted peer changes nothing', async () => {
    const from = freshLoopback();
    for (let i = 0; i < LIMIT; i++) {
      const a = await exchange(api, from, { apiKey: `sk_live_wrong${i}`, organizationId: t.org.id }, { 'x-forwarded-for': freshPublicIp() });
      assert.equal(a.status, 401);
    }
    const a = await exchange(api, from, good(), { 'x-forwarded-for': freshPublicIp() });
    assert.equal(a.status, 429, 'a new X-Forwarded-For value did not buy a new allowance');
  });

  it('behind a trusted proxy, keys on the client address the proxy forwarded (not on what the client claims)', async () => {
    const proxy = freshLoopback(); // inside TRUSTED_PROXIES (127.0.0.0/8)
    const client = freshPublicIp();
    for (let i = 0; i < LIMIT; i++) {
      // the client's own claim comes first; the proxy appends the address it saw
      const xff = `${freshPublicIp()}, ${client}`;
      assert.equal((await exchange(behindProxy, proxy, { apiKey: `sk_live_bad${i}`, organizationId: t.org.id }, { 'x-forwarded-for': xff })).status, 401);
    }
    const sameClient = await exchange(behindProxy, proxy, good(), { 'x-forwarded-for': `${freshPublicIp()}, ${client}` });
    assert.equal(sameClient.status, 429);
    // another client through the same proxy is not affected
    const otherClient = await exchange(behindProxy, proxy, good(), { 'x-forwarded-for': freshPublicIp() });
    assert.equal(otherClient.status, 200);
  });
});

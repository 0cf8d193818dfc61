// The HTTP kit over the real app: one envelope per API, 405 + Allow, input limits,
// response headers (api/kit/, docs/api-kit.md).
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { assertError, startTenantApi, type TestApi } from '../support/api';
import type { Tenant } from '../support/factories';

let api: TestApi;
let tenant: Tenant;

beforeAll(async () => ({ api, tenant } = await startTenantApi()));
afterAll(() => api.stop());

const auth = () => ({ token: tenant.key.key });

/** Any method, TRACE and unknown ones included (fetch refuses those). */
function raw(method: string, path: string, token?: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: any }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(api.baseUrl + path, { method, headers: token ? { authorization: `Bearer ${token}` } : {} }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text ? JSON.parse(text) : undefined }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('405 with Allow for a method a path does not serve, in each API envelope', () => {
  it('ticketing: PUT on a GET/POST route, TRACE, and an unknown method', async () => {
    for (const method of ['PUT', 'TRACE', 'PURGE', 'QUERY']) {
      const res = await raw(method, '/v1/tickets', tenant.key.key);
      assertError(res, 405, 'method_not_allowed');
      assert.deepEqual(String(res.headers.allow).split(', ').sort(), ['GET', 'HEAD', 'POST']);
    }
    const detail = await api.request('PUT', '/v1/tickets/tkt_x');
    assertError(detail, 405, 'method_not_allowed');
    assert.deepEqual(detail.headers.get('allow')?.split(', ').sort(), ['DELETE', 'GET', 'HEAD', 'PATCH']);
    const health = await api.request('POST', '/v1/health', { body: {} });
    assertError(health, 405, 'method_not_allowed');
    assert.equal(health.headers.get('allow'), 'HEAD, GET');
  });

  it('OPTIONS answers 204 with Allow; a path nobody serves stays 404', async () => {
    const res = await api.request('OPTIONS', '/v1/webhooks');
    assert.equal(res.status, 204);
    assert.match(res.headers.get('allow') ?? '', /POST/);
    assertError(await api.request('PUT', '/v1/nothing-here'), 404, 'not_found');
  });

  it('platform: snake_case envelope with request_id', async () => {
    const res = await api.request('DELETE', '/platform/v1/health');
    assert.equal(res.status, 405);
    assert.equal(res.headers.get('allow'), 'HEAD, GET');
    assert.equal(res.body.error.code, 'method_not_allowed');
    assert.equal(res.body.error.status, 405);
    assert.match(res.body.error.request_id, /^req_/);
    const missing = await api.request('GET', '/platform/v1/nope');
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.code, 'not_found');
  });

  it('push: { message, code } with the spec codes', async () => {
    const res = await api.request('PATCH', '/api/v1/health', { body: {} });
    assert.equal(res.status, 405);
    assert.equal(res.body.code, 'METHOD_NOT_ALLOWED');
    assert.equal(typeof res.body.message, 'string');
    const missing = await api.request('GET', '/api/v1/nope');
    assert.deepEqual(Object.keys(missing.body).sort(), ['code', 'message']);
    assert.equal(missing.body.code, 'RESOURCE_NOT_FOUND');
  });
});

describe('validation errors keep zod per-field details', () => {
  it('ticketing adds error.details by field path', async () => {
    const res = await api.request('POST', '/v1/tickets', { ...auth(), body: { workspaceId: tenant.workspace.id, title: '', tags: [1] } });
    assertError(res, 400, 'validation_error');
    const d = res.body.error.details;
    assert.ok(d.playerId?.length, JSON.stringify(d));
    assert.ok(d.title?.length);
    assert.ok(d['tags.0']?.length);
    assert.ok(d.body?.length);
  });
});

describe('input limits', () => {
  it('a NUL byte in search, category, playerId or a path id is 400, never a driver error', async () => {
    const ws = tenant.workspace.id;
    for (const q of [`search=a%00b`, `category=x%00`, `playerId=%00`]) {
      assertError(await api.request('GET', `/v1/tickets?workspaceId=${ws}&${q}`, auth()), 400, 'validation_error');
    }
    assertError(await api.request('GET', '/v1/tickets/tkt_%00', auth()), 400, 'validation_error');
    assertError(await api.request('GET', '/v1/players/kpl_%00/tickets', auth()), 400, 'validation_error');
  });

  it('percent-escapes that are not UTF-8 are 400', async () => {
    assertError(await api.request('GET', `/v1/tickets?workspaceId=${tenant.workspace.id}&search=%FF%FE`, auth()), 400, 'validation_error');
    assertError(await api.request('GET', '/v1/tickets/%C3%28', auth()), 400, 'validation_error');
  });

  it('a body whose bytes are not UTF-8 is 400; multi-byte text split across chunks is not', async () => {
    const post = (body: Buffer) =>
      fetch(`${api.baseUrl}/v1/tickets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${tenant.key.key}`, 'content-type': 'application/json' },
        body,
      }).then(async (r) => ({ status: r.status, body: (await r.json()) as any }));
    const bad = Buffer.concat([Buffer.from(`{"workspaceId":"${tenant.workspace.id}","playerId":"p","title":"`), Buffer.from([0xff, 0xfe]), Buffer.from('","body":"b"}')]);
    const res = await post(bad);
    assertError(res, 400, 'validation_error');
    assert.match(res.body.error.message, /UTF-8/);
    const text = 'é€😀'.repeat(40_000); // ~360 kB: the parser gets it in many chunks
    const good = Buffer.from(JSON.stringify({ workspaceId: tenant.workspace.id, playerId: 'nobody', title: 't', body: 'b', metadata: { notes: text } }));
    assertError(await post(good), 404, 'player_not_found');
  });

  it('a NUL in a body string or key is 400', async () => {
    const res = await api.request('POST', '/v1/tickets', {
      ...auth(),
      body: { workspaceId: tenant.workspace.id, playerId: 'p', title: 't', body: 'b', metadata: { 'k\u0000': 1 } },
    });
    assertError(res, 400, 'validation_error');
  });

  it('JSON nested deeper than 32 levels is 400 (10,000 levels too); 32 levels are parsed', async () => {
    const nest = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
    for (const depth of [33, 10_000]) {
      const rawBody = `{"workspaceId":"${tenant.workspace.id}","playerId":"p","title":"t","body":"b","metadata":${nest(depth - 1)}}`;
      const res = await api.request('POST', '/v1/tickets', { ...auth(), rawBody });
      assertError(res, 400, 'validation_error');
      assert.match(res.body.error.message, /nested deeper than 32/);
    }
    const ok = `{"workspaceId":"${tenant.workspace.id}","playerId":"nobody","title":"t","body":"b","metadata":${nest(31)}}`;
    // past the limits: the unknown player is the answer
    assertError(await api.request('POST', '/v1/tickets', { ...auth(), rawBody: ok }), 404, 'player_not_found');
  });

  it('413 in the envelope for a body over BODY_LIMIT; after it the connection is closed', async () => {
    assertError(await api.request('POST', '/v1/tickets', { ...auth(), rawBody: 'x'.repeat(1_100_000) }), 413, 'payload_too_large');
    // A chunked body over the limit on a keep-alive connection: the answer is 413 and then
    // the server closes the socket instead of reading the rest as the next request.
    const url = new URL(api.baseUrl);
    const socket = connect(Number(url.port), url.hostname);
    await new Promise((r) => socket.once('connect', r));
    let received = '';
    socket.on('data', (d) => (received += d.toString()));
    const closed = new Promise<void>((r) => socket.once('close', () => r()));
    socket.write(
      `POST /v1/tickets HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${tenant.key.key}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: keep-alive\r\n\r\n`,
    );
    const chunk = 'x'.repeat(64 * 1024);
    for (let i = 0; i < 20 && !socket.destroyed; i++) socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    await closed;
    assert.match(received, /^HTTP\/1\.1 413/);
    assert.match(received, /connection: close/i);
    assert.match(received, /payload_too_large/);
  });
});

describe('response headers', () => {
  it('X-Content-Type-Options: nosniff on every response, errors and every API included', async () => {
    for (const [method, path] of [['GET', '/v1/health'], ['GET', '/v1/tickets'], ['TRACE', '/v1/tickets'], ['GET', '/platform/v1/health'], ['GET', '/api/v1/nope']]) {
      const res = await raw(method, path);
      assert.equal(res.headers['x-content-type-options'], 'nosniff', `${method} ${path}`);
    }
  });

  it('Strict-Transport-Security only when served over TLS or behind a proxy that says so', async () => {
    const plain = await api.request('GET', '/v1/health');
    assert.equal(plain.headers.get('strict-transport-security'), null);
    const tls = await api.request('GET', '/v1/health', { headers: { 'X-Forwarded-Proto': 'https' } });
    assert.match(tls.headers.get('strict-transport-security') ?? '', /^max-age=\d+/);
  });

  it('Cache-Control: no-store on answers that carry a token or secret', async () => {
    const token = await api.request('POST', '/v1/auth/token', { body: { apiKey: tenant.key.key, organizationId: tenant.org.id } });
    assert.equal(token.status, 200);
    assert.equal(token.headers.get('cache-control'), 'no-store');
    const key = await api.request('POST', `/v1/organizations/${tenant.org.id}/api-keys`, { ...auth(), body: { name: 'no-store', scopes: ['tickets:read'] } });
    assert.equal(key.status, 201);
    assert.equal(key.headers.get('cache-control'), 'no-store');
  });
});

import assert from 'node:assert/strict';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { createSafeHttpAgent, createSafeHttpsAgent } from '../../lib/webhooks/safe-agent';
import type { Resolver } from '../../lib/webhooks/url-policy';

// A real receiver on loopback; `connections` proves whether a refused request ever connected.
let server: http.Server;
let port = 0;
let connections = 0;
beforeAll(async () => {
  server = http.createServer((_req, res) => res.writeHead(204).end());
  server.on('connection', () => connections++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const rebind: Resolver = async (host) => {
  if (host === 'rebind.test') return [{ address: '127.0.0.1', family: 4 }];
  if (host === 'mixed.test') return [{ address: '127.0.0.1', family: 4 }, { address: '10.0.0.1', family: 4 }];
  throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
};

function get(url: string, agent: http.Agent): Promise<{ status?: number; error?: NodeJS.ErrnoException }> {
  const lib = url.startsWith('https:') ? https : http;
  return new Promise((resolve) => {
    const req = lib.request(url, { method: 'POST', agent, timeout: 5_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error }));
    req.end('{}');
  });
}

async function refused(url: string, agent: http.Agent, address: RegExp) {
  const before = connections;
  const r = await get(url, agent);
  assert.equal(r.status, undefined, `${url} should not get an answer`);
  assert.equal(r.error?.code, 'ERR_WEBHOOK_FORBIDDEN_ADDRESS', String(r.error));
  assert.match(r.error!.message, address);
  assert.equal(connections, before, 'refused before connecting');
}

test('loopback switch off (the default): a loopback IP is refused before connecting', async () => {
  await refused(`http://127.0.0.1:${port}/hook`, createSafeHttpAgent(), /127\.0\.0\.1: loopback address/);
  await refused(`http://127.0.0.1:${port}/hook`, createSafeHttpAgent({ allowLoopback: false }), /loopback/);
  await refused(`https://127.0.0.1:${port}/hook`, createSafeHttpsAgent(), /loopback/);
});

test('loopback switch on: the request goes through', async () => {
  const before = connections;
  assert.deepEqual(await get(`http://127.0.0.1:${port}/hook`, createSafeHttpAgent({ allowLoopback: true })), { status: 204 });
  assert.equal(connections, before + 1);
});

test('DNS rebinding: a name resolving to loopback at connect time is refused', async () => {
  await refused(`http://rebind.test:${port}/`, createSafeHttpAgent({ resolve: rebind }), /rebind\.test \(127\.0\.0\.1\): loopback/);
  await refused(`https://rebind.test:${port}/`, createSafeHttpsAgent({ resolve: rebind }), /loopback/);
  // the same name is fine once loopback is allowed: the lookup really is the one used
  assert.deepEqual(await get(`http://rebind.test:${port}/`, createSafeHttpAgent({ resolve: rebind, allowLoopback: true })), { status: 204 });
});

test('one forbidden answer among several refuses the connection, even with loopback allowed', async () => {
  await refused(`http://mixed.test:${port}/`, createSafeHttpAgent({ resolve: rebind, allowLoopback: true }), /mixed\.test \(10\.0\.0\.1\): private/);
});

test('resolver failures surface as ordinary connection errors', async () => {
  const r = await get(`http://nowhere.test:${port}/`, createSafeHttpAgent({ resolve: rebind }));
  assert.equal(r.error?.code, 'ENOTFOUND');
});

test('unix sockets are refused', async () => {
  const before = connections;
  const r = await new Promise<NodeJS.ErrnoException>((resolve) => {
    http.request({ socketPath: '/tmp/nope.sock', path: '/', agent: createSafeHttpAgent({ allowLoopback: true }) }).on('error', resolve).end();
  });
  assert.equal(r.code, 'ERR_WEBHOOK_FORBIDDEN_ADDRESS');
  assert.equal(connections, before);
});

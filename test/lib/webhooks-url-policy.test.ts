import assert from 'node:assert/strict';
import { checkWebhookUrl, classifyAddress, isForbiddenAddress, type Resolver } from '../../lib/webhooks/url-policy';

// A fake DNS: no test here may reach a real resolver or the network.
const DNS: Record<string, string[]> = {
  'hooks.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  'evil.example.com': ['10.0.0.7'],
  'mixed.example.com': ['93.184.216.34', '192.168.1.10'],
  'meta.example.com': ['169.254.169.254'],
  'v6private.example.com': ['fd12:3456::1'],
  'mapped.example.com': ['::ffff:10.0.0.1'],
  'loop.example.com': ['127.0.0.1'],
  'localhost': ['127.0.0.1', '::1'],
};
const resolve: Resolver = async (host) => {
  const list = DNS[host];
  if (!list) throw Object.assign(new Error(`ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
  return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};
const check = (url: string, allowLoopback = false) => checkWebhookUrl(url, { resolve, allowLoopback });
async function rejects(url: string, pattern: RegExp, allowLoopback = false) {
  const r = await check(url, allowLoopback);
  assert.equal(r.ok, false, `${url} should be rejected`);
  if (!r.ok) assert.match(r.reason, pattern, url);
}

test('isForbiddenAddress / classifyAddress over every forbidden range', () => {
  const cases: Record<string, string | null> = {
    '10.1.2.3': 'private', '172.16.0.1': 'private', '172.31.255.255': 'private', '192.168.0.1': 'private',
    '100.64.0.1': 'shared (CGNAT)', '100.127.255.255': 'shared (CGNAT)',
    '127.0.0.1': 'loopback', '127.255.0.9': 'loopback', '::1': 'loopback',
    '169.254.1.1': 'link-local', '169.254.169.254': 'cloud metadata', 'fe80::1': 'link-local', 'febf::1': 'link-local',
    'fd00:ec2::254': 'cloud metadata',
    'fc00::1': 'unique-local', 'fdff::1': 'unique-local',
    '0.0.0.0': 'unspecified', '::': 'unspecified', '0.1.2.3': 'reserved',
    '::ffff:10.0.0.1': 'private', '::ffff:127.0.0.1': 'loopback', '::ffff:169.254.169.254': 'cloud metadata',
    '::ffff:a9fe:a9fe': 'cloud metadata', '64:ff9b::10.0.0.1': 'private', '2002:c0a8:0101::1': 'private',
    '224.0.0.1': 'multicast', '239.255.255.250': 'multicast', 'ff02::1': 'multicast',
    '255.255.255.255': 'reserved', '240.0.0.1': 'reserved', '192.0.2.1': 'reserved', '198.18.0.1': 'reserved', '2001:db8::1': 'reserved',
    'not-an-ip': 'reserved', '[::1]': 'loopback',
    // public
    '93.184.216.34': null, '8.8.8.8': null, '172.32.0.1': null, '100.128.0.1': null, '172.15.255.255': null,
    '2606:4700:4700::1111': null, '::ffff:8.8.8.8': null, '64:ff9b::8.8.8.8': null,
  };
  for (const [ip, cls] of Object.entries(cases)) {
    assert.equal(classifyAddress(ip), cls, ip);
    assert.equal(isForbiddenAddress(ip), cls !== null, ip);
  }
  assert.equal(isForbiddenAddress('127.0.0.1', { allowLoopback: true }), false);
  assert.equal(isForbiddenAddress('::ffff:127.0.0.1', { allowLoopback: true }), false);
  assert.equal(isForbiddenAddress('10.0.0.1', { allowLoopback: true }), true);
});

test('a public HTTPS URL passes and comes back normalised, fragment dropped', async () => {
  assert.deepEqual(await check('https://Hooks.Example.com/in?x=1#frag'), { ok: true, url: 'https://hooks.example.com/in?x=1' });
  assert.deepEqual(await check('https://hooks.example.com:8443/'), { ok: true, url: 'https://hooks.example.com:8443/' });
  assert.deepEqual(await check('https://hooks.example.com:443/'), { ok: true, url: 'https://hooks.example.com/' });
  assert.deepEqual(await check('https://93.184.216.34/hook'), { ok: true, url: 'https://93.184.216.34/hook' });
});

test('plain HTTP, other schemes, credentials, bad ports and junk are rejected with a clear reason', async () => {
  await rejects('http://hooks.example.com/', /must use HTTPS; plain HTTP is rejected/);
  await rejects('ftp://hooks.example.com/', /must use HTTPS/);
  await rejects('not a url', /not a valid absolute URL/);
  await rejects('', /required/);
  await rejects('https://user:pw@hooks.example.com/', /credentials/);
  await rejects('https://user@hooks.example.com/', /credentials/);
  await rejects('https://hooks.example.com:22/', /port 22 is not allowed/);
  await rejects('https://hooks.example.com:80/', /port 80 is not allowed/);
  await rejects(`https://hooks.example.com/${'a'.repeat(2100)}`, /at most 2048/);
});

test('a name that does not resolve (yet) is accepted; one that resolves to a forbidden address is not', async () => {
  // registered before its DNS exists: attempts fail and are logged until it resolves,
  // and the connect-time check (safe-agent.ts) guards whatever it resolves to then
  assert.deepEqual(await check('https://nxdomain.example.com/hook'), { ok: true, url: 'https://nxdomain.example.com/hook' });
  const silent: Resolver = () => new Promise(() => undefined); // a resolver that never answers
  assert.deepEqual(await checkWebhookUrl('https://slow.example.com/', { resolve: silent, resolveTimeoutMs: 50 }), { ok: true, url: 'https://slow.example.com/' });
  await rejects('https://evil.example.com/', /evil\.example\.com resolves to 10\.0\.0\.7, a private address/);
  // plain HTTP stays for receivers known to be on loopback: an unresolved name is not one
  await rejects('http://nxdomain.example.com/', /plain HTTP is only allowed to loopback/, true);
});

test('private, loopback, link-local, metadata and other non-public IP literals are rejected', async () => {
  await rejects('https://10.0.0.1/', /10\.0\.0\.1 is a private address/);
  await rejects('https://127.0.0.1/', /loopback/);
  await rejects('https://[::1]/', /loopback/);
  await rejects('https://169.254.169.254/latest/meta-data', /cloud metadata/);
  await rejects('https://[fe80::1]/', /link-local/);
  await rejects('https://[fd00::1]/', /unique-local/);
  await rejects('https://0.0.0.0/', /an unspecified address/);
  await rejects('https://[::ffff:10.0.0.1]/', /private/);
  await rejects('https://100.64.1.1/', /CGNAT/);
  await rejects('https://224.0.0.1/', /multicast/);
  // alternative IPv4 spellings are normalised by the URL parser before the check
  await rejects('https://2130706433/', /127\.0\.0\.1 is a loopback address/);
  await rejects('https://0x7f.1/', /loopback/);
  await rejects('https://0177.0.0.1/', /loopback/);
});

test('hostnames resolving to a forbidden address are rejected, naming the address', async () => {
  await rejects('https://evil.example.com/', /evil\.example\.com resolves to 10\.0\.0\.7, a private address/);
  await rejects('https://mixed.example.com/', /192\.168\.1\.10/); // one bad answer is enough
  await rejects('https://meta.example.com/', /cloud metadata/);
  await rejects('https://v6private.example.com/', /unique-local/);
  await rejects('https://mapped.example.com/', /private/);
  await rejects('https://loop.example.com/', /loopback/);
});

test('internal and single-label names are rejected without resolving', async () => {
  let asked = 0;
  const counting: Resolver = async (h) => (asked++, resolve(h));
  for (const url of ['https://metadata.google.internal/', 'https://metadata/', 'https://localhost/', 'https://api.localhost/', 'https://printer.local/', 'https://db.corp.internal/', 'https://router.home.arpa/', 'https://localhost./']) {
    const r = await checkWebhookUrl(url, { resolve: counting });
    assert.equal(r.ok, false, url);
  }
  assert.equal(asked, 0);
});

test('allowLoopback lets loopback test receivers in (http too) and nothing else', async () => {
  assert.deepEqual(await check('http://127.0.0.1:4567/hook', true), { ok: true, url: 'http://127.0.0.1:4567/hook' });
  assert.deepEqual(await check('http://localhost:4567/hook', true), { ok: true, url: 'http://localhost:4567/hook' });
  assert.deepEqual(await check('http://[::1]:4567/', true), { ok: true, url: 'http://[::1]:4567/' });
  assert.deepEqual(await check('https://loop.example.com/', true), { ok: true, url: 'https://loop.example.com/' });
  await rejects('http://hooks.example.com/', /plain HTTP is only allowed to loopback/, true);
  await rejects('https://10.0.0.1/', /private/, true);
  await rejects('https://evil.example.com/', /private/, true);
  await rejects('http://127.0.0.1:4567/', /plain HTTP is rejected/, false);
});

test('the default is off: no options means no loopback', async () => {
  const r = await checkWebhookUrl('http://127.0.0.1:8080/');
  assert.equal(r.ok, false);
});

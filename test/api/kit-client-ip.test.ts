// The client address: the socket's, or what trusted proxies forwarded.
import assert from 'node:assert/strict';
import { clientIp, trustedProxies } from '../../api/kit/client-ip';

describe('clientIp', () => {
  const none = trustedProxies([]);
  const proxies = trustedProxies(['10.0.0.0/8', '192.0.2.7', '::1', 'fd00::/8']);

  it('is the socket address unless the peer is a trusted proxy', () => {
    assert.equal(clientIp('203.0.113.5', '198.51.100.1', none), '203.0.113.5');
    assert.equal(clientIp('::ffff:203.0.113.5', undefined, none), '203.0.113.5');
    assert.equal(clientIp('203.0.113.5', '198.51.100.1', proxies), '203.0.113.5', 'an untrusted peer cannot forward');
  });

  it('walks X-Forwarded-For from the right, past trusted proxies only', () => {
    assert.equal(clientIp('10.1.2.3', '198.51.100.1', proxies), '198.51.100.1');
    assert.equal(clientIp('10.1.2.3', '1.1.1.1, 198.51.100.1, 192.0.2.7', proxies), '198.51.100.1', 'the client-supplied 1.1.1.1 is ignored');
    assert.equal(clientIp('::1', '2001:db8::9, fd00::2', proxies), '2001:db8::9');
    assert.equal(clientIp('::ffff:10.0.0.1', '::ffff:198.51.100.4', proxies), '198.51.100.4');
    assert.equal(clientIp('10.1.2.3', 'garbage, 198.51.100.1', proxies), '198.51.100.1');
    assert.equal(clientIp('10.1.2.3', '198.51.100.1, garbage', proxies), '10.1.2.3', 'a malformed hop stops at the last vouched address');
    assert.equal(clientIp('10.1.2.3', '10.9.9.9, 10.8.8.8', proxies), '10.9.9.9', 'all trusted: the leftmost');
  });

  it('refuses a TRUSTED_PROXIES entry that is no address or range', () => {
    assert.throws(() => trustedProxies(['10.0.0.0/33']), /invalid prefix length/);
    assert.throws(() => trustedProxies(['proxy.internal']), /not an IP address or CIDR range/);
  });
});

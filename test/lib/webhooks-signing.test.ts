import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import {
  deliveryHeaders,
  isEndpointSecret,
  newEndpointSecret,
  signBody,
  standardWebhookHeaders,
  standardWebhooksKey,
  verifyServiceSignature,
} from '../../lib/webhooks/signing';

// The real receiver library (a devDependency), as a receiver would verify our headers.
import { Webhook } from 'standardwebhooks';

const body = Buffer.from(JSON.stringify({ id: 'evt_1', event: 'ticket.created', workspaceId: 'ws_1', timestamp: '2025-03-01T10:00:00.000Z', data: { title: 'Crash – ünïcode' } }));

test('newEndpointSecret: whsec_ + base64 of 32 random bytes, different each time', () => {
  const a = newEndpointSecret();
  const b = newEndpointSecret();
  assert.match(a, /^whsec_[A-Za-z0-9+/]{43}=$/);
  assert.notEqual(a, b);
  assert.equal(standardWebhooksKey(a).length, 32);
  assert.ok(isEndpointSecret(a));
  for (const bad of ['', 'whsec_', 'sk_abc', 'whsec_not*base64', 'whsec_' + Buffer.alloc(8).toString('base64')]) {
    assert.equal(isEndpointSecret(bad), false, bad);
  }
});

test('x-service-signature: hex HMAC-SHA256 of the raw bytes keyed with the secret string as shown', () => {
  const secret = newEndpointSecret();
  const expected = createHmac('sha256', secret).update(body).digest('hex'); // what a receiver writes
  assert.equal(signBody(secret, body), expected);
  assert.equal(signBody(secret, body.toString('utf8')), expected);
  assert.match(expected, /^[0-9a-f]{64}$/);
});

test('verifyServiceSignature accepts the right one and rejects tampering, other secrets and junk', () => {
  const secret = newEndpointSecret();
  const sig = signBody(secret, body);
  assert.equal(verifyServiceSignature(secret, body, sig), true);
  assert.equal(verifyServiceSignature(secret, body, sig.toUpperCase()), true);
  const tampered = Buffer.from(body.toString().replace('ticket.created', 'ticket.closed'));
  assert.equal(verifyServiceSignature(secret, tampered, sig), false);
  // re-serialised JSON (whitespace) is a different body: receivers must use the raw bytes
  assert.equal(verifyServiceSignature(secret, JSON.stringify(JSON.parse(body.toString()), null, 2), sig), false);
  assert.equal(verifyServiceSignature(newEndpointSecret(), body, sig), false);
  for (const junk of [undefined, null, '', sig.slice(2), sig + '00', 'z'.repeat(64)]) {
    assert.equal(verifyServiceSignature(secret, body, junk), false, String(junk));
  }
});

test('standardWebhookHeaders matches the Standard Webhooks reference vector', () => {
  // Vector from the standard-webhooks JavaScript library's own "sign function works" test.
  const h = standardWebhookHeaders({
    id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
    timestampSeconds: 1614265330,
    body: '{"test": 2432232314}',
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  });
  assert.deepEqual(h, {
    'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
    'webhook-timestamp': '1614265330',
    'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
  });
});

test('standardWebhookHeaders refuses ids with "." and non-integer timestamps', () => {
  const secret = newEndpointSecret();
  assert.throws(() => standardWebhookHeaders({ id: 'evt.1', timestampSeconds: 1, body, secret }));
  assert.throws(() => standardWebhookHeaders({ id: '', timestampSeconds: 1, body, secret }));
  assert.throws(() => standardWebhookHeaders({ id: 'evt_1', timestampSeconds: 1.5, body, secret }), RangeError);
  assert.throws(() => standardWebhookHeaders({ id: 'evt_1', timestampSeconds: 1, body, secret: 'plain' }));
});

test('deliveryHeaders carries both schemes from one secret', () => {
  const secret = newEndpointSecret();
  const h = deliveryHeaders({ id: 'evt_1', timestampSeconds: 1_700_000_000, body, secret });
  assert.equal(h['content-type'], 'application/json');
  assert.equal(h['x-service-signature'], signBody(secret, body));
  assert.equal(h['webhook-id'], 'evt_1');
  assert.equal(h['webhook-timestamp'], '1700000000');
  assert.match(h['webhook-signature'], /^v1,[A-Za-z0-9+/]{43}=$/);
});

test('the standardwebhooks library verifies our headers and rejects a tampered body', () => {
  const secret = newEndpointSecret();
  const wh = new Webhook(secret);
  const headers = { ...deliveryHeaders({ id: 'evt_42', timestampSeconds: Math.floor(Date.now() / 1000), body, secret }) };
  assert.deepEqual(wh.verify(body, headers), JSON.parse(body.toString()));
  assert.deepEqual(wh.verify(body.toString(), headers), JSON.parse(body.toString()));
  const tampered = body.toString().replace('ws_1', 'ws_2');
  assert.throws(() => wh.verify(tampered, headers));
  assert.throws(() => new Webhook(newEndpointSecret()).verify(body, headers));
  // a stale timestamp (an old attempt's headers replayed) is refused: sign per attempt
  const old = deliveryHeaders({ id: 'evt_42', timestampSeconds: Math.floor(Date.now() / 1000) - 600, body, secret });
  assert.throws(() => wh.verify(body, old));
});

test('deliveryHeaders carries only the schemes it is given (an API names its own)', () => {
  const secret = newEndpointSecret();
  const input = { id: 'evt_1', timestampSeconds: 1_700_000_000, body: '{"a":1}', secret };
  assert.deepEqual(Object.keys(deliveryHeaders(input, ['service-signature'])).sort(), ['content-type', 'x-service-signature']);
  assert.deepEqual(Object.keys(deliveryHeaders(input, ['standard-webhooks'])).sort(), [
    'content-type',
    'webhook-id',
    'webhook-signature',
    'webhook-timestamp',
  ]);
  assert.deepEqual(deliveryHeaders(input), deliveryHeaders(input, ['service-signature', 'standard-webhooks']));
});

test('with a previous secret (a rotation\'s 24 h): webhook-signature lists v1,<new> v1,<old>, X-Service-Signature-Previous the old one', () => {
  const fresh = newEndpointSecret();
  const old = newEndpointSecret();
  const now = Math.floor(Date.now() / 1000);
  const h = deliveryHeaders({ id: 'evt_7', timestampSeconds: now, body, secret: fresh, previousSecret: old });
  const alone = (secret: string) => standardWebhookHeaders({ id: 'evt_7', timestampSeconds: now, body, secret })['webhook-signature'];
  assert.equal(h['webhook-signature'], `${alone(fresh)} ${alone(old)}`);
  assert.equal(h['x-service-signature'], signBody(fresh, body));
  assert.equal(h['x-service-signature-previous'], signBody(old, body));
  // receivers on either secret verify; a third secret does not
  assert.doesNotThrow(() => new Webhook(fresh).verify(body, h));
  assert.doesNotThrow(() => new Webhook(old).verify(body, h));
  assert.throws(() => new Webhook(newEndpointSecret()).verify(body, h));
  // null or absent: one secret, no extra header; only the schemes given carry the old one
  assert.deepEqual(deliveryHeaders({ id: 'evt_7', timestampSeconds: now, body, secret: fresh, previousSecret: null }), deliveryHeaders({ id: 'evt_7', timestampSeconds: now, body, secret: fresh }));
  const serviceOnly = deliveryHeaders({ id: 'evt_7', timestampSeconds: now, body, secret: fresh, previousSecret: old }, ['service-signature']);
  assert.deepEqual(Object.keys(serviceOnly).sort(), ['content-type', 'x-service-signature', 'x-service-signature-previous']);
});

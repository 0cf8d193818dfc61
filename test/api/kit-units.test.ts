// Pure and Redis-level pieces of the HTTP kit: pagination, cursors, the rate-limit gate
// with its bucket and window as inputs (and its peek), the RATE_LIMITS overrides, and the
// credential cache.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { AppError } from '../../api/kit/errors';
import { platformEnvelope, pushEnvelope, ticketingEnvelope } from '../../api/kit/envelopes';
import { decodeCursor, encodeCursor, PageQuery, pageOf } from '../../api/kit/pagination';
import { gate, withOverrides } from '../../api/kit/rate-limit';
import { credentialCache } from '../../api/kit/auth/credential-cache';
import { parse } from '../../api/kit/validation';
import { jsonProblem } from '../../api/kit/input-limits';
import { loadConfig } from '../../lib/config';
import { z } from '../../api/zod';

const ctx = { state: { requestId: 'req_1' } } as never;

describe('pagination', () => {
  it('page/pageSize: default 20, at most 100 (101 is a 400), pages counted', () => {
    assert.deepEqual(parse(PageQuery, {}), { page: 1, pageSize: 20 });
    assert.deepEqual(parse(PageQuery, { page: '3', pageSize: '100' }), { page: 3, pageSize: 100 });
    for (const bad of [{ pageSize: '101' }, { page: '0' }, { pageSize: 'x' }, { page: ['1', '2'] }]) {
      assert.throws(() => parse(PageQuery, bad), (e: AppError) => e.status === 400);
    }
    assert.deepEqual(pageOf(['a'], 41, { page: 3, pageSize: 20 }), { items: ['a'], total: 41, page: 3, pageSize: 20, totalPages: 3 });
  });

  it('an opaque cursor round-trips; a tampered or foreign one is a 400', () => {
    const valid = (c: any): c is { id: string } => typeof c.id === 'string';
    assert.deepEqual(decodeCursor(encodeCursor({ id: 'x' }), valid, 'bad'), { id: 'x' });
    for (const raw of ['%%%', Buffer.from('null').toString('base64url'), encodeCursor({ id: 1 })]) {
      assert.throws(() => decodeCursor(raw, valid, 'bad cursor'), (e: AppError) => e.status === 400 && e.details?.cursor?.[0] === 'bad cursor');
    }
  });
});

describe('envelopes', () => {
  const invalid = new AppError(400, 'validation_error', 'title: Required', {}, { title: ['Required'] });
  it('ticketing keeps its envelope and adds details', () => {
    assert.deepEqual(ticketingEnvelope.present(invalid, ctx), {
      error: { code: 'validation_error', message: 'title: Required', status: 400, requestId: 'req_1', details: { title: ['Required'] } },
    });
  });
  it('platform: snake_case codes and request_id', () => {
    assert.deepEqual(platformEnvelope.present(invalid, ctx), {
      error: { code: 'validation_failed', message: 'title: Required', status: 400, request_id: 'req_1', details: { title: ['Required'] } },
    });
    assert.equal((platformEnvelope.present(new AppError(429, 'rate_limit_exceeded', 'x'), ctx) as any).error.code, 'rate_limited');
  });
  it('push: { message, code, errors } on 400 and { message, code } otherwise', () => {
    assert.deepEqual(pushEnvelope.present(invalid, ctx), { message: 'title: Required', code: 'VALIDATION_FAILED', errors: { title: ['Required'] } });
    assert.deepEqual(pushEnvelope.present(new AppError(413, 'payload_too_large', 'big'), ctx), { message: 'big', code: 'PAYLOAD_TOO_LARGE' });
    assert.deepEqual(pushEnvelope.present(new AppError(403, 'TRIAL_EXPIRED', 'over'), ctx), { message: 'over', code: 'TRIAL_EXPIRED' });
  });
  it('zod issues become per-field details', () => {
    try {
      parse(z.object({ a: z.string(), b: z.array(z.number()) }), { b: ['x'] });
      assert.fail('no error');
    } catch (e) {
      assert.deepEqual((e as AppError).details, { a: ['Required'], 'b.0': ['Expected number, received string'] });
    }
  });
});

describe('input limits', () => {
  it('depth 32 passes, 33 does not; NUL in strings and keys is found', () => {
    const nest = (d: number): unknown => (d === 0 ? 1 : { a: nest(d - 1) });
    assert.equal(jsonProblem(nest(32)), null);
    assert.match(jsonProblem(nest(33))![1], /deeper than 32/);
    assert.deepEqual(jsonProblem({ a: ['ok', 'x\u0000'] }), ['a.1', 'must not contain NUL characters']);
    assert.deepEqual(jsonProblem({ m: { 'k\u0000': 1 } }), ['m', 'keys must not contain NUL characters']);
  });
});

describe('rate-limit gate', () => {
  let redis: Redis;
  beforeAll(() => {
    redis = new Redis(process.env.REDIS_URL!);
  });
  afterAll(() => redis.disconnect());

  it('counts per bucket, with the limit and window given', async () => {
    const ip = `ip:{${randomUUID()}}:post-auth`;
    const results = [];
    for (let i = 0; i < 3; i++) results.push(await gate(redis, { key: ip, limit: 2, windowMs: 1000 }));
    assert.deepEqual(results.map((r) => r.allowed), [true, true, false]);
    assert.equal(results[2].remaining, 0);
    assert.equal(results[2].resetSeconds, 1);
    // another bucket (say, writes apart from reads) is not touched
    assert.equal((await gate(redis, { key: `${ip}:writes`, limit: 2 })).allowed, true);
    // the window is the input: after it, the bucket has room again
    await new Promise((r) => setTimeout(r, 1100));
    assert.equal((await gate(redis, { key: ip, limit: 2, windowMs: 1000 })).allowed, true);
  });

  it('a set block marker refuses without counting', async () => {
    const key = `t:{${randomUUID()}}`;
    await redis.set(`${key}:blocked`, '1', 'EX', 10);
    const r = await gate(redis, { key: `${key}:rl`, blockedKey: `${key}:blocked`, limit: 5 });
    assert.equal(r.blocked, true);
    assert.equal(await redis.exists(`${key}:rl`), 0);
  });

  it('a peek reads the window without taking a slot', async () => {
    const key = `t:{${randomUUID()}}:failures`;
    assert.equal((await gate(redis, { key, limit: 1 }, 'peek')).allowed, true);
    assert.equal(await redis.exists(key), 0, 'nothing counted');
    assert.equal((await gate(redis, { key, limit: 1 })).allowed, true);
    const full = await gate(redis, { key, limit: 1 }, 'peek');
    assert.equal(full.allowed, false);
    assert.ok(full.resetSeconds >= 1 && full.resetSeconds <= 60);
    assert.equal(await redis.zcard(key), 1, 'a peek adds nothing');
  });

  it('RATE_LIMITS overrides any named limit group', () => {
    const config = loadConfig({ RATE_LIMITS: 'scale=100000, push.ip=7, bogus=x' });
    assert.deepEqual(config.rateLimits, { scale: 100000, 'push.ip': 7 });
    assert.deepEqual(withOverrides({ starter: 120, scale: 3000 }, config.rateLimits), { starter: 120, scale: 100000 });
    assert.deepEqual(withOverrides({ 'push.ip': 30 }, config.rateLimits), { 'push.ip': 7 });
  });
});

describe('credential cache', () => {
  let redis: Redis;
  beforeAll(() => {
    redis = new Redis(process.env.REDIS_URL!);
  });
  afterAll(() => redis.disconnect());
  const logger = { warn: () => undefined } as never;

  it('reuses a found row and a miss, shares concurrent loads, reads again what is not servable', async () => {
    const counters = { hits: 0, misses: 0 };
    let servable = true;
    const cache = credentialCache<{ id: string }>({ redis, logger, counters, revokedMarker: (id) => `t:{${id}}:revoked`, recordUse: async () => undefined, servable: () => servable });
    let loads = 0;
    const load = async () => (loads++, { id: 'k1' });
    await Promise.all([cache.get('h:a', load), cache.get('h:a', load)]);
    assert.equal(loads, 1, 'one query for concurrent misses');
    assert.deepEqual(await cache.get('h:a', load), { id: 'k1' });
    assert.equal(loads, 1, 'then a hit');
    assert.equal(await cache.get('h:none', async () => (loads++, null)), null);
    assert.equal(await cache.get('h:none', async () => (loads++, null)), null);
    assert.equal(loads, 2, 'an unknown key is remembered too');
    servable = false;
    await cache.get('h:a', load);
    await cache.get('h:a', load);
    assert.equal(loads, 4, 'a row that may not be served from the cache is read every time');
    servable = true;
    await cache.get('h:a', load);
    assert.equal(loads, 4, 'served from the cache again');
    cache.forget('k1');
    await cache.get('h:a', load);
    assert.equal(loads, 5, 'forget drops the row');
  });

  it('touches a key at most once a minute, off the request path; markRevoked sets the markers for a day', async () => {
    const uses: string[] = [];
    let release!: () => void;
    const written = new Promise<void>((r) => (release = r));
    const cache = credentialCache<{ id: string }>({
      redis,
      logger,
      counters: { hits: 0, misses: 0 },
      revokedMarker: (id) => `t:{${id}}:revoked`,
      recordUse: async (id) => {
        uses.push(id);
        await written;
      },
    });
    cache.touch('k1');
    cache.touch('k1');
    assert.deepEqual(uses, ['k1'], 'started at once, once');
    let settled = false;
    const pending = cache.pendingTouch('k1').then(() => (settled = true));
    await new Promise((r) => setImmediate(r));
    assert.equal(settled, false, 'the write is still in flight; touch() did not wait for it');
    release();
    await pending;
    const id = randomUUID();
    await cache.markRevoked([id]);
    const ttl = await redis.ttl(`t:{${id}}:revoked`);
    assert.ok(ttl > 23 * 3600 && ttl <= 24 * 3600, `marker TTL ${ttl}`);
  });
});

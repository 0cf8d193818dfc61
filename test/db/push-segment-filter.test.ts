// Compiled segment filters run against real push_devices rows: each operator selects
// exactly the devices its documented semantics say, hostile keys and values are data,
// never SQL, and on a table large enough for the planner to care, metadata containment
// and key existence go through the GIN index push_devices_metadata.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { connectDb, type Db } from '../../db/db';
import { countSegmentDevices, registerDevice } from '../../db/repositories/push-devices';
import { segmentDeviceQuery } from '../../db/repositories/push-segment-sql';
import { parseSegmentFilter } from '../../domain/push/segment-filter.rules';
import { createPushCompanyAndApp, deactivateDevice, dropPushFixture, insertManyDevices, type PushFixture } from '../support/push-device-factories';

let db: Db;
let fx: PushFixture;
let other: PushFixture;
const HOSTILE_KEY = `k'"; DROP TABLE push_devices; --->>\u00e9🔑`;

// token → its registration
const DEVICES: Array<{ token: string; platform: 'Android' | 'iOS'; userId?: string; meta: Record<string, unknown>; inactive?: boolean }> = [
  { token: 'a1', platform: 'Android', userId: 'u1', meta: { country: 'US', level: 10, tier: 'gold' } },
  { token: 'a2', platform: 'Android', userId: 'u2', meta: { country: 'DE', level: '25', vip: true } },
  { token: 'a3', platform: 'Android', meta: { country: 'US', level: 'high' } },
  { token: 'i1', platform: 'iOS', userId: 'u1', meta: { country: 'FR', level: 5.5, [HOSTILE_KEY]: "'; DROP TABLE x; --" } },
  { token: 'i2', platform: 'iOS', meta: {} },
  { token: 'i3', platform: 'iOS', userId: 'u3', meta: { country: 'US', level: 30 }, inactive: true },
];

async function matching(filter: unknown): Promise<string[]> {
  const q = segmentDeviceQuery(parseSegmentFilter(filter), fx.appId);
  const { rows } = await db.query<{ token: string }>(
    `SELECT d.device_token AS token FROM push_devices d WHERE ${q.whereSql} ORDER BY d.device_token`,
    q.params,
  );
  return rows.map((r) => r.token);
}
const and = (...conditions: unknown[]) => ({ operator: 'AND', conditions });
const or = (...conditions: unknown[]) => ({ operator: 'OR', conditions });
const c = (field: string, operator: string, value: unknown) => ({ field, operator, value });

beforeAll(async () => {
  db = await connectDb(process.env.DATABASE_URL!, 2);
  fx = await createPushCompanyAndApp(db);
  other = await createPushCompanyAndApp(db);
  for (const d of DEVICES) {
    const { device } = await registerDevice(db, { id: randomUUID(), appId: fx.appId, deviceToken: d.token, platform: d.platform, userId: d.userId, deviceMetadata: d.meta });
    if (d.inactive) await deactivateDevice(db, device.id);
  }
  // a device of another app that matches everything: never counted for fx
  await registerDevice(db, { id: randomUUID(), appId: other.appId, deviceToken: 'a1', platform: 'Android', userId: 'u1', deviceMetadata: { country: 'US' } });
});
afterAll(async () => {
  if (fx) await dropPushFixture(db, fx);
  if (other) await dropPushFixture(db, other);
  await db?.close();
});

describe('compiled filters select the documented devices (active devices of one app only)', () => {
  const cases: Array<[string, unknown, string[]]> = [
    ['platform equals, any case', and(c('platform', 'equals', 'android')), ['a1', 'a2', 'a3']],
    ['platform not_equals', and(c('platform', 'not_equals', 'ANDROID')), ['i1', 'i2']],
    ['platform in', and(c('platform', 'in', ['ios'])), ['i1', 'i2']],
    ['userId equals', and(c('userId', 'equals', 'u1')), ['a1', 'i1']],
    ['userId not_equals includes devices without a user', and(c('userId', 'not_equals', 'u1')), ['a2', 'a3', 'i2']],
    ['userId in', and(c('userId', 'in', ['u2', 'u3', 'nobody'])), ['a2']],
    ['userId exists true', and(c('userId', 'exists', true)), ['a1', 'a2', 'i1']],
    ['userId exists false', and(c('userId', 'exists', false)), ['a3', 'i2']],
    ['isActive equals true (inactive devices never match a segment)', and(c('isActive', 'equals', true)), ['a1', 'a2', 'a3', 'i1', 'i2']],
    ['isActive equals false', and(c('isActive', 'equals', false)), []],
    ['metadata equals string', and(c('deviceMetadata.country', 'equals', 'US')), ['a1', 'a3']],
    ['metadata equals is typed: 25 is not "25"', and(c('deviceMetadata.level', 'equals', 25)), []],
    ['metadata equals "25"', and(c('deviceMetadata.level', 'equals', '25')), ['a2']],
    ['metadata equals boolean', and(c('deviceMetadata.vip', 'equals', true)), ['a2']],
    ['metadata not_equals includes devices without the key', and(c('deviceMetadata.country', 'not_equals', 'US')), ['a2', 'i1', 'i2']],
    ['metadata in', and(c('deviceMetadata.country', 'in', ['DE', 'FR', 'XX'])), ['a2', 'i1']],
    ['metadata exists true', and(c('deviceMetadata.tier', 'exists', true)), ['a1']],
    ['metadata exists false', and(c('deviceMetadata.country', 'exists', false)), ['i2']],
    ['greater_than: numbers and numeric strings, never other strings', and(c('deviceMetadata.level', 'greater_than', 6)), ['a1', 'a2']],
    ['less_than with a decimal', and(c('deviceMetadata.level', 'less_than', 10)), ['i1']],
    ['less_than on a missing key matches nothing', and(c('deviceMetadata.nope', 'less_than', 1e9)), []],
    [
      'nesting: Android and (US or vip)',
      and(c('platform', 'equals', 'Android'), or(c('deviceMetadata.country', 'equals', 'US'), c('deviceMetadata.vip', 'equals', true))),
      ['a1', 'a2', 'a3'],
    ],
    [
      'nesting: OR of ANDs',
      or(and(c('platform', 'equals', 'iOS'), c('userId', 'exists', true)), and(c('deviceMetadata.level', 'greater_than', 20))),
      ['a2', 'i1'],
    ],
    ['empty AND: every active device', and(), ['a1', 'a2', 'a3', 'i1', 'i2']],
    ['empty OR: none', or(), []],
  ];
  test.each(cases)('%s', async (_name, filter, tokens) => {
    assert.deepEqual(await matching(filter), tokens);
  });

  test('countSegmentDevices counts what the WHERE clause selects', async () => {
    assert.equal(await countSegmentDevices(db, fx.appId, parseSegmentFilter(and(c('deviceMetadata.country', 'equals', 'US')))), 2);
  });
});

describe('hostile keys and values are data', () => {
  test('a metadata key full of quotes, ->> and unicode is matched as a key', async () => {
    assert.deepEqual(await matching(and(c(`deviceMetadata.${HOSTILE_KEY}`, 'exists', true))), ['i1']);
    assert.deepEqual(await matching(and(c(`deviceMetadata.${HOSTILE_KEY}`, 'equals', "'; DROP TABLE x; --"))), ['i1']);
  });

  test("values like '; DROP, ' OR '1'='1 and ->> match nothing and change nothing", async () => {
    for (const v of ["'; DROP TABLE push_devices; --", "x' OR '1'='1", "country'->>'x", '$1', '?']) {
      assert.deepEqual(await matching(and(c('deviceMetadata.country', 'equals', v))), []);
      assert.deepEqual(await matching(and(c('userId', 'in', [v]))), []);
      assert.deepEqual(await matching(and(c(`deviceMetadata.${v}`, 'exists', true))), []);
      assert.deepEqual(await matching(and(c(`deviceMetadata.${v}`, 'greater_than', 0))), []);
    }
    const { rows } = await db.query('SELECT count(*)::int AS n FROM push_devices WHERE app_id = $1', [fx.appId]);
    assert.equal(rows[0].n, DEVICES.length);
  });
});

describe('the GIN index serves metadata filters on a large table', () => {
  let big: PushFixture;
  beforeAll(async () => {
    big = await createPushCompanyAndApp(db);
    // 20,000 devices: country cycles through 200 codes, 'beta' exists on 20 of them
    await insertManyDevices(db, big.appId, 20_000, (i) => ({
      platform: i % 2 === 0 ? 'Android' : 'iOS',
      deviceMetadata: { country: `C${i % 200}`, level: i % 50, ...(i % 1000 === 0 ? { beta: true } : {}) },
    }));
    // what autovacuum does on a live table: moves the bulk-inserted GIN entries from the
    // index's pending list into the index proper, and refreshes the statistics
    await db.query('VACUUM ANALYZE push_devices');
  });
  afterAll(async () => {
    if (big) await dropPushFixture(db, big);
  });

  async function plan(filter: unknown): Promise<string> {
    const q = segmentDeviceQuery(parseSegmentFilter(filter), big.appId);
    const { rows } = await db.query(`EXPLAIN SELECT count(*) FROM push_devices d WHERE ${q.whereSql}`, q.params);
    return rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n');
  }

  test.each([
    ['equals (containment)', and(c('deviceMetadata.country', 'equals', 'C7'))],
    ['in (containment of any)', and(c('deviceMetadata.country', 'in', ['C7', 'C8']))],
    ['exists (key existence)', and(c('deviceMetadata.beta', 'exists', true))],
  ])('%s', async (_name, filter) => {
    const text = await plan(filter);
    assert.match(text, /Bitmap Index Scan on push_devices_metadata/, text);
  });

  test('the counts are right on the large table too', async () => {
    assert.equal(await countSegmentDevices(db, big.appId, parseSegmentFilter(and(c('deviceMetadata.country', 'equals', 'C7')))), 100);
    assert.equal(await countSegmentDevices(db, big.appId, parseSegmentFilter(and(c('deviceMetadata.beta', 'exists', true)))), 20);
    assert.equal(
      await countSegmentDevices(db, big.appId, parseSegmentFilter(and(c('deviceMetadata.level', 'greater_than', 47), c('platform', 'equals', 'android')))),
      400, // level 48 (i % 50 = 48: i is even, Android); 49 is iOS
    );
  });
});

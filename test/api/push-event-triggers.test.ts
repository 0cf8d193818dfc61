// Event triggers over HTTP (/api/v1/event-triggers): create (201), list per app (a plain
// array), get, PATCH (enable/disable, edit), DELETE (204), their 400s and 404/403s, and
// POST /event-triggers/fire (API key only): triggersMatched for matching and
// non-matching events and conditions, the rendered text stored with each firing
// (placeholders present, missing, hostile), and Idempotency-Key replay against two fires.
// What the firings push is the e2e and workflow tests' part.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { TestApi } from '../support/api';
import { apiKeyHeader, assertPushError, bearer, GENEROUS_PUSH_LIMITS, registerAccount, startPushApi } from '../support/push';
import { createTwoAppTenant, insertManyDevices, type TwoAppTenant } from '../support/push-device-factories';
import { fireEvent } from '../../domain/push/fire-event';

describe('push event triggers', () => {
  let api: TestApi;
  let t: TwoAppTenant;
  let deviceA: string;
  let deviceB: string;
  beforeAll(async () => {
    api = await startPushApi();
    t = await createTwoAppTenant(api);
    [{ id: deviceA }] = await insertManyDevices(api.deps.db, t.appA, 1, () => ({ platform: 'Android', deviceMetadata: {} }));
    [{ id: deviceB }] = await insertManyDevices(api.deps.db, t.appB, 1, () => ({ platform: 'iOS', deviceMetadata: {} }));
  });
  afterAll(async () => api?.stop());

  const valid = (extra: Record<string, unknown> = {}) => ({
    appId: t.appA,
    name: 'Big spender',
    eventName: `purchase-${randomUUID().slice(0, 8)}`,
    delayMinutes: 30,
    conditions: [{ field: 'properties.amount', operator: 'greater_than', value: 100 }],
    title: 'Thanks {{properties.name}}',
    body: 'Enjoy your {{properties.item}}',
    ...extra,
  });
  const create = (body: Record<string, unknown>, headers = bearer(t.userToken)) => api.request('POST', '/api/v1/event-triggers', { headers, body });
  const fire = (body: Record<string, unknown>, headers: Record<string, string> = apiKeyHeader(t.keyA)) =>
    api.request('POST', '/api/v1/event-triggers/fire', { headers, body });
  const firingsOf = async (deviceId: string, eventTitle?: string) =>
    (
      await api.deps.db.query(
        `SELECT f.title, f.body, f.status, f.fire_id FROM push_trigger_firings f JOIN push_event_triggers t ON t.id = f.trigger_id
          WHERE f.device_id = $1 AND ($2::text IS NULL OR t.event_name = $2) ORDER BY f.created_at, f.title`,
        [deviceId, eventTitle ?? null],
      )
    ).rows;

  describe('CRUD', () => {
    it('POST creates a trigger (201): enabled by default; an API key of the app may create one too', async () => {
      const body = valid();
      const res = await create(body);
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.match(res.body.id, /^[0-9a-f-]{36}$/);
      const { id, createdAt, updatedAt, ...rest } = res.body;
      assert.deepEqual(rest, { ...body, enabled: true });
      assert.ok(!Number.isNaN(Date.parse(createdAt)) && !Number.isNaN(Date.parse(updatedAt)));
      const byKey = await create(valid({ conditions: undefined, delayMinutes: 0, enabled: false }), apiKeyHeader(t.keyA));
      assert.equal(byKey.status, 201, JSON.stringify(byKey.body));
      assert.deepEqual(byKey.body.conditions, []);
      assert.equal(byKey.body.enabled, false);
      assert.equal(byKey.body.delayMinutes, 0);
    });

    it('GET lists the app\'s triggers (plain array, oldest first), GET one, PATCH enables/disables and edits, DELETE removes (204)', async () => {
      const app = (await registerAccount(api)).accessToken;
      const { body: appRow } = await api.request('POST', '/api/v1/apps', { headers: bearer(app), body: { name: 'Listed', bundleId: 'com.example.listed', platform: 'Android' } });
      const first = (await create(valid({ appId: appRow.id, name: 'one' }), bearer(app))).body;
      const second = (await create(valid({ appId: appRow.id, name: 'two' }), bearer(app))).body;
      const list = await api.request('GET', `/api/v1/event-triggers?appId=${appRow.id}`, { headers: bearer(app) });
      assert.equal(list.status, 200);
      assert.deepEqual(list.body.map((x: { id: string }) => x.id), [first.id, second.id]);

      const one = await api.request('GET', `/api/v1/event-triggers/${first.id}`, { headers: bearer(app) });
      assert.deepEqual(one.body, first);

      const off = await api.request('PATCH', `/api/v1/event-triggers/${first.id}`, { headers: bearer(app), body: { enabled: false } });
      assert.equal(off.status, 200, JSON.stringify(off.body));
      assert.equal(off.body.enabled, false);
      assert.equal(off.body.title, first.title);
      const edited = await api.request('PATCH', `/api/v1/event-triggers/${first.id}`, {
        headers: bearer(app),
        body: { enabled: true, delayMinutes: 5, title: 'New {{properties.x}}', conditions: [] },
      });
      assert.equal(edited.status, 200, JSON.stringify(edited.body));
      assert.deepEqual([edited.body.enabled, edited.body.delayMinutes, edited.body.title, edited.body.conditions, edited.body.body], [true, 5, 'New {{properties.x}}', [], first.body]);

      const del = await api.request('DELETE', `/api/v1/event-triggers/${first.id}`, { headers: bearer(app) });
      assert.equal(del.status, 204);
      assertPushError(await api.request('GET', `/api/v1/event-triggers/${first.id}`, { headers: bearer(app) }), 404, 'RESOURCE_NOT_FOUND');
      assertPushError(await api.request('DELETE', `/api/v1/event-triggers/${first.id}`, { headers: bearer(app) }), 404, 'RESOURCE_NOT_FOUND');
      const after = await api.request('GET', `/api/v1/event-triggers?appId=${appRow.id}`, { headers: bearer(app) });
      assert.deepEqual(after.body.map((x: { id: string }) => x.id), [second.id]);
    });

    it('bad input is a 400 naming the field', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [valid({ delayMinutes: -1 }), 'delayMinutes'],
        [valid({ delayMinutes: 10_081 }), 'delayMinutes'],
        [valid({ delayMinutes: 1.5 }), 'delayMinutes'],
        [valid({ delayMinutes: '5' }), 'delayMinutes'],
        [valid({ conditions: [{ field: 'properties.a', operator: 'like', value: 'x' }] }), 'conditions.0.operator'],
        [valid({ conditions: [{ field: 'deviceMetadata.country', operator: 'equals', value: 'US' }] }), 'conditions.0.field'],
        [valid({ conditions: [{ field: 'properties.', operator: 'exists' }] }), 'conditions.0.field'],
        [valid({ conditions: [{ field: 'properties.a', operator: 'greater_than', value: '100' }] }), 'conditions.0.value'],
        [valid({ conditions: [{ field: 'properties.a', operator: 'exists', value: 'yes' }] }), 'conditions.0.value'],
        [valid({ conditions: [{ field: 'properties.a', operator: 'contains', value: null }] }), 'conditions.0.value'],
        [valid({ conditions: [{ field: 'properties.a', operator: 'equals', value: 1, extra: 1 }] }), 'conditions.0'],
        [valid({ conditions: Array.from({ length: 21 }, () => ({ field: 'properties.a', operator: 'exists' })) }), 'conditions'],
        [valid({ title: undefined }), 'title'],
        [valid({ body: '   ' }), 'body'],
        [valid({ name: 'x'.repeat(201) }), 'name'],
        [valid({ eventName: 'a\u0000b' }), 'eventName'],
        [valid({ appId: 'nope' }), 'appId'],
        [valid({ color: 'red' }), ''],
      ];
      for (const [body, field] of cases) {
        const res = await create(body);
        assertPushError(res, 400, 'VALIDATION_FAILED');
        if (field) assert.ok(res.body.errors[field], `${JSON.stringify(body)}: ${JSON.stringify(res.body.errors)}`);
      }
      const { body: trigger } = await create(valid());
      for (const body of [{}, { enabled: 'no' }, { delayMinutes: 10_081 }, { appId: t.appB }]) {
        assertPushError(await api.request('PATCH', `/api/v1/event-triggers/${trigger.id}`, { headers: bearer(t.userToken), body }), 400, 'VALIDATION_FAILED');
      }
    });

    it("another company's trigger or app is a 404; an API key of another app of the company is a 403", async () => {
      const { body: trigger } = await create(valid());
      const stranger = bearer((await registerAccount(api)).accessToken);
      for (const [method, body] of [['GET', undefined], ['PATCH', { enabled: false }], ['DELETE', undefined]] as const) {
        assertPushError(await api.request(method, `/api/v1/event-triggers/${trigger.id}`, { headers: stranger, body }), 404, 'RESOURCE_NOT_FOUND');
        assertPushError(await api.request(method, `/api/v1/event-triggers/${randomUUID()}`, { headers: bearer(t.userToken), body }), 404, 'RESOURCE_NOT_FOUND');
        assertPushError(await api.request(method, `/api/v1/event-triggers/not-a-uuid`, { headers: bearer(t.userToken), body }), 404, 'RESOURCE_NOT_FOUND');
        assertPushError(await api.request(method, `/api/v1/event-triggers/${trigger.id}`, { headers: apiKeyHeader(t.keyB), body }), 403, 'FORBIDDEN');
      }
      assertPushError(await create(valid(), stranger), 404, 'RESOURCE_NOT_FOUND');
      assertPushError(await create(valid({ appId: t.appB }), apiKeyHeader(t.keyA)), 403, 'FORBIDDEN');
      assertPushError(await api.request('GET', `/api/v1/event-triggers?appId=${t.appA}`, { headers: stranger }), 404, 'RESOURCE_NOT_FOUND');
      assertPushError(await api.request('GET', `/api/v1/event-triggers`, { headers: bearer(t.userToken) }), 400, 'VALIDATION_FAILED');
      assertPushError(await api.request('GET', `/api/v1/event-triggers/${trigger.id}`), 401, 'UNAUTHORIZED');
      assert.equal((await api.request('GET', `/api/v1/event-triggers/${trigger.id}`, { headers: bearer(t.userToken) })).status, 200);
    });
  });

  it('deleting the app deletes its triggers and their firings', async () => {
    const owner = (await registerAccount(api)).accessToken;
    const { body: app } = await api.request('POST', '/api/v1/apps', { headers: bearer(owner), body: { name: 'Gone', bundleId: 'com.example.gone', platform: 'Android' } });
    const { body: key } = await api.request('POST', '/api/v1/api-keys', { headers: bearer(owner), body: { appId: app.id, name: 'k' } });
    const [{ id: deviceId }] = await insertManyDevices(api.deps.db, app.id, 1, () => ({ platform: 'Android', deviceMetadata: {} }));
    assert.equal((await create(valid({ appId: app.id, eventName: 'e', conditions: [], delayMinutes: 600 }), bearer(owner))).status, 201);
    assert.deepEqual((await fire({ deviceId, eventName: 'e' }, apiKeyHeader(key.key))).body, { triggersMatched: 1 });
    assert.equal((await api.request('DELETE', `/api/v1/apps/${app.id}`, { headers: bearer(owner) })).status, 204);
    for (const table of ['push_event_triggers', 'push_trigger_firings']) {
      const { rows } = await api.deps.db.query(`SELECT count(*)::int AS n FROM ${table} WHERE app_id = $1`, [app.id]);
      assert.equal(rows[0].n, 0, table);
    }
  });

  describe('POST /event-triggers/fire', () => {
    it('counts the enabled triggers of the event whose conditions hold', async () => {
      const event = `checkout-${randomUUID().slice(0, 8)}`;
      const mk = async (extra: Record<string, unknown>) => assert.equal((await create(valid({ eventName: event, delayMinutes: 60, ...extra }))).status, 201);
      await mk({ name: 'any', conditions: [] });
      await mk({ name: 'big', conditions: [{ field: 'properties.amount', operator: 'greater_than', value: 100 }] });
      await mk({ name: 'gold and coupon', conditions: [{ field: 'properties.plan', operator: 'equals', value: 'gold' }, { field: 'properties.coupon', operator: 'exists' }] });
      await mk({ name: 'boots', conditions: [{ field: 'properties.item', operator: 'contains', value: 'boot' }] });
      await mk({ name: 'off', conditions: [], enabled: false });
      await mk({ name: 'other event', eventName: `${event}-x`, conditions: [] });
      const count = async (properties: Record<string, unknown>, eventName = event) => {
        const res = await fire({ deviceId: deviceA, eventName, properties });
        assert.equal(res.status, 202, JSON.stringify(res.body));
        return res.body.triggersMatched;
      };
      assert.equal(await count({}), 1);
      assert.equal(await count({ amount: 101 }), 2);
      assert.equal(await count({ amount: '500' }), 1, 'a string is not a number');
      assert.equal(await count({ amount: 100, plan: 'gold', coupon: 'X1' }), 2);
      assert.equal(await count({ plan: 'gold', coupon: null }), 1, 'exists: null is absent');
      assert.equal(await count({ amount: 1000, plan: 'gold', coupon: 'X', item: 'red boots' }), 4);
      assert.equal(await count({ amount: 1000 }, 'no-such-event'), 0);
      assert.equal(await count({ amount: 1000 }, event.toUpperCase()), 0, 'event names are case-sensitive');
      const res = await fire({ deviceId: deviceA, eventName: event });
      assert.deepEqual(res.body, { triggersMatched: 1 }, 'properties default to {}');
    });

    it('stores the rendered text: present, missing and hostile values stay text', async () => {
      const event = `render-${randomUUID().slice(0, 8)}`;
      await create(valid({ eventName: event, conditions: [], title: 'Hi {{properties.name}}{{properties.missing}}!', body: '{{ properties.item }} for {{properties.price}} ({{properties.flags}})' }));
      const props = { name: '{{properties.item}}', item: '${process.exit(1)}', price: 9.5, flags: { vip: true }, unused: 'x' };
      assert.deepEqual((await fire({ deviceId: deviceA, eventName: event, properties: props })).body, { triggersMatched: 1 });
      assert.deepEqual((await fire({ deviceId: deviceA, eventName: event, properties: { name: "$& $' `x`" } })).body, { triggersMatched: 1 });
      const rows = (await firingsOf(deviceA, event)).map(({ title, body, status }: Record<string, string>) => ({ title, body, status }));
      assert.deepEqual(rows, [
        { title: 'Hi {{properties.item}}!', body: '${process.exit(1)} for 9.5 ({"vip":true})', status: 'pending' },
        { title: "Hi $& $' `x`!", body: ' for  ()', status: 'pending' },
      ]);
    });

    it('the device must be the key\'s app\'s: unknown, malformed or another app\'s device is a 404; a user token is a 401', async () => {
      const event = `dev-${randomUUID().slice(0, 8)}`;
      await create(valid({ eventName: event, conditions: [] }));
      for (const deviceId of [randomUUID(), 'not-a-uuid', deviceB]) {
        assertPushError(await fire({ deviceId, eventName: event }), 404, 'RESOURCE_NOT_FOUND');
      }
      assertPushError(await fire({ deviceId: deviceA, eventName: event }, bearer(t.userToken)), 401, 'UNAUTHORIZED');
      assertPushError(await fire({ deviceId: deviceA, eventName: event, properties: 'x' }), 400, 'VALIDATION_FAILED');
      assertPushError(await fire({ deviceId: deviceA, eventName: event, properties: { big: 'x'.repeat(9000) } }), 400, 'VALIDATION_FAILED');
      assertPushError(await fire({ deviceId: deviceA }), 400, 'VALIDATION_FAILED');
      assertPushError(await fire({ deviceId: deviceA, eventName: event, extra: 1 }), 400, 'VALIDATION_FAILED');
    });

    it('an Idempotency-Key replays the answer and fires once; without one, two fires fire twice', async () => {
      const event = `idem-${randomUUID().slice(0, 8)}`;
      await create(valid({ eventName: event, conditions: [] }));
      await create(valid({ eventName: event, conditions: [], name: 'second' }));
      const key = randomUUID();
      const headers = { ...apiKeyHeader(t.keyA), 'idempotency-key': key };
      const first = await fire({ deviceId: deviceA, eventName: event }, headers);
      const again = await fire({ deviceId: deviceA, eventName: event }, headers);
      assert.deepEqual([first.status, first.body, again.status, again.body], [202, { triggersMatched: 2 }, 202, { triggersMatched: 2 }]);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.equal((await firingsOf(deviceA, event)).length, 2);

      // a retry after a lost answer (the key bound to the fire, no stored answer) counts that fire's firings
      const fireId = (await firingsOf(deviceA, event))[0].fire_id;
      const retried = await fireEvent(
        api.deps.db,
        { appId: t.appA, deviceId: deviceA, eventName: event, properties: {} },
        { idempotency: { scope: 'test', key, token: 'lapsed', resourceId: fireId } },
      );
      assert.deepEqual(retried, { triggersMatched: 2 });
      assert.equal((await firingsOf(deviceA, event)).length, 2);

      await fire({ deviceId: deviceA, eventName: event });
      await fire({ deviceId: deviceA, eventName: event });
      assert.equal((await firingsOf(deviceA, event)).length, 6);
    });
  });
});

describe('POST /event-triggers/fire: the push-event-fire group (RATE_LIMITS push-event-fire=2)', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startPushApi({ RATE_LIMITS: `${GENEROUS_PUSH_LIMITS},push-event-fire=2` });
  });
  afterAll(async () => api?.stop());

  it('counts fires per key in their own window (not the push-token one): the 3rd is a 429', async () => {
    const t = await createTwoAppTenant(api);
    const [{ id: deviceId }] = await insertManyDevices(api.deps.db, t.appA, 1, () => ({ platform: 'Android', deviceMetadata: {} }));
    const fire = (key: string) => api.request('POST', '/api/v1/event-triggers/fire', { headers: apiKeyHeader(key), body: { deviceId, eventName: 'x' } });
    const answers = [await fire(t.keyA), await fire(t.keyA), await fire(t.keyA)];
    assert.deepEqual(answers.map((a) => a.status), [202, 202, 429]);
    assert.equal(answers[0].headers.get('x-ratelimit-limit'), '2');
    assertPushError(answers[2], 429, 'RATE_LIMITED');
    // another key has its own window (its app's device is another: a 404, but counted and answered)
    assert.equal((await fire(t.keyB)).status, 404);
    // the trigger routes are in push-token, not this group
    assert.equal((await api.request('GET', `/api/v1/event-triggers?appId=${t.appA}`, { headers: apiKeyHeader(t.keyA) })).status, 200);
  });
});

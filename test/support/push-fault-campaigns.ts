// The campaign and trigger load of the push fault run (test/faults/push-killed.test.ts):
// a 10,000-device campaign of its own app, sent just before the push worker is killed
// (the kill lands mid-fan-out), a campaign sent and one scheduled to fall due inside the
// down time before every fault, and a stream of trigger firings (delay 0, and delay one
// minute while the first faults run). All requests go through the careful client (one
// Idempotency-Key per operation, retried until answered). The checks read what the
// sink received against what the database says each campaign's snapshot and each
// firing were: every device at least once under one notificationId, no scheduled or
// delayed push before its time, repeats counted by the phase they arrived in.
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '../../db/db';
import { sql } from '../../db/db';
import type { TestApi } from './api';
import type { Operation } from './careful-client';
import { insertManyDevices } from './push-device-factories';
import { pushTenant, type PushTenant } from './push-send';
import type { SinkRecord } from './push-sink';

/** The careful client's run (test/support/careful-client.ts), bound to one app's key. */
type Run = <T>(op: Operation<T>) => Promise<T>;

const BIG_AUDIENCE = 10_000;
/** a scheduled campaign falls due this long after it is scheduled, inside the fault's down time */
const SCHEDULE_AHEAD_MS = 4000;
const LATER_DELAY_MS = 60_000;
const MAX_FIRES = 400;

interface CampaignOp extends Operation<{ id: string }> {
  label: string;
  /** epoch ms the campaign was scheduled for; null: sent at once */
  scheduledAt: number | null;
}
interface FireOp extends Operation<{ triggersMatched: number }> {
  marker: string;
  token: string;
  delayMs: number;
}

export interface CampaignFaultLoad {
  /** before each kill: a campaign sent and one scheduled into the down time; the 10k one before the worker's kill */
  beforeFault(name: string): Promise<void>;
  /** trigger firings at a steady pace while `on()` */
  fireClient(on: () => boolean): Promise<void>;
  operations(): Operation[];
  /** waits for every acknowledged campaign and firing at the sink, asserts, answers repeats by phase */
  check(records: () => SinkRecord[], phaseOf: (at: number) => string, timeoutMs: number): Promise<{ repeats: Map<string, number>; summary: string }>;
}

export async function campaignFaultLoad(o: {
  api: TestApi;
  db: Db;
  tenant: PushTenant;
  /** the careful client of the tenant's app and one for a new app (made here) */
  client: (apiKey: string) => Run;
  pool: Array<{ id: string; token: string }>;
  /** pushes the sink accepted so far (all kinds) */
  sinkTotal: () => number;
}): Promise<CampaignFaultLoad> {
  const big = await pushTenant(o.api);
  await insertManyDevices(o.db, big.appId, BIG_AUDIENCE, (n) => ({ platform: n % 2 ? 'Android' : 'iOS', deviceMetadata: {} }));
  const runMain = o.client(o.tenant.apiKey);
  const runBig = o.client(big.apiKey);
  for (const [eventName, delayMinutes, prefix] of [['fault-now', 0, 'now'], ['fault-later', 1, 'later']] as const) {
    const res = await o.api.request('POST', '/api/v1/event-triggers', {
      token: o.tenant.token,
      body: { appId: o.tenant.appId, name: eventName, eventName, delayMinutes, conditions: [], title: 'fault fire', body: `${prefix} {{properties.n}}` },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
  }
  const campaigns: CampaignOp[] = [];
  const steps: Operation[] = [];
  const fires: FireOp[] = [];
  const laterUntil = Date.now() + 30_000; // delayed firings only early: each is due a minute later

  async function campaign(run: Run, appId: string, label: string, scheduledAt: number | null): Promise<string> {
    const create: CampaignOp = {
      path: '/api/v1/campaigns',
      key: `push-faults-campaign-${label}`,
      body: { appId, name: label, title: `campaign ${label}`, body: 'fault run', targetType: 'All' },
      attempts: [],
      label,
      scheduledAt,
    };
    campaigns.push(create);
    const { id } = await run(create);
    const step: Operation = scheduledAt === null
      ? { path: `/api/v1/campaigns/${id}/send`, key: `push-faults-send-campaign-${label}`, body: {}, attempts: [] }
      : { path: `/api/v1/campaigns/${id}/schedule`, key: `push-faults-schedule-${label}`, body: { scheduledAt: new Date(scheduledAt).toISOString() }, attempts: [] };
    steps.push(step);
    await run(step);
    return id;
  }

  return {
    async beforeFault(name) {
      const tag = name.split(' ')[0].toLowerCase();
      if (/worker/.test(name)) {
        const before = o.sinkTotal();
        await campaign(runBig, big.appId, `big-${tag}`, null);
        // the kill lands mid-fan-out: some of the audience has its push, most not yet
        while (o.sinkTotal() - before < 1500) await sleep(20);
      }
      await campaign(runMain, o.tenant.appId, `sent-${tag}`, null);
      await campaign(runMain, o.tenant.appId, `scheduled-${tag}`, Date.now() + SCHEDULE_AHEAD_MS);
    },

    async fireClient(on) {
      for (let i = 0; on() && fires.length < MAX_FIRES; i++) {
        const later = i % 3 === 2 && Date.now() < laterUntil;
        const device = o.pool[(i * 37) % o.pool.length];
        const marker = `${later ? 'later' : 'now'} ${i}`;
        const op: FireOp = {
          path: '/api/v1/event-triggers/fire',
          key: `push-faults-fire-${i}`,
          body: { deviceId: device.id, eventName: later ? 'fault-later' : 'fault-now', properties: { n: String(i) } },
          attempts: [],
          marker,
          token: device.token,
          delayMs: later ? LATER_DELAY_MS : 0,
        };
        fires.push(op);
        const answer = await runMain(op);
        assert.equal(answer.triggersMatched, 1, `${op.key} matched ${answer.triggersMatched}`);
        await sleep(250);
      }
    },

    operations: () => [...campaigns, ...steps, ...fires],

    async check(records, phaseOf, timeoutMs) {
      // what each campaign's snapshot holds: notificationId → token
      const expected = new Map<string, { token: string; what: string; notBefore: number }>();
      // A stall, not a slow machine, fails the wait: the time runs out only after
      // `timeoutMs` in which the sink received nothing new.
      const deadline = stallDeadline(timeoutMs, () => records().length);
      for (const c of campaigns) {
        const id = c.answer!.id;
        for (;;) {
          const { rows } = await sql<{ status: string }>(o.db, `SELECT status FROM push_campaigns WHERE id = $1`, [id]);
          if (rows[0]?.status === 'Completed') break;
          assert.ok(!deadline.passed(), `campaign ${c.label} is ${rows[0]?.status}, not Completed, and the sink received nothing for ${timeoutMs / 1000} s`);
          await sleep(500);
        }
        const { rows } = await sql<{ id: string; token: string }>(
          o.db,
          `SELECT n.id, d.device_token AS token FROM push_notifications n JOIN push_sends s ON s.id = n.send_id
             JOIN push_devices d ON d.id = n.device_id WHERE s.campaign_id = $1`,
          [id],
        );
        assert.ok(rows.length >= (c.label.startsWith('big') ? BIG_AUDIENCE : 1), `campaign ${c.label} has ${rows.length} devices`);
        for (const r of rows) expected.set(r.id, { token: r.token, what: `campaign ${c.label}`, notBefore: c.scheduledAt ?? 0 });
      }
      // each firing: its one push, found by the rendered marker
      const byMarker = (rs: SinkRecord[]) => {
        const m = new Map<string, SinkRecord[]>();
        for (const r of rs) if (r.title === 'fault fire') m.set(String(r.body), [...(m.get(String(r.body)) ?? []), r]);
        return m;
      };
      let received: SinkRecord[] = [];
      for (;;) {
        received = records();
        const ids = new Set(received.map((r) => String(r.data.notificationId)));
        const markers = byMarker(received);
        const missing = [...expected.keys()].filter((id) => !ids.has(id)).length + fires.filter((f) => !markers.has(f.marker)).length;
        if (!missing) break;
        if (deadline.passed()) assert.fail(`${missing} acknowledged campaign or trigger pushes never reached the sink`);
        await sleep(500);
      }
      const repeats = new Map<string, number>();
      const count = (r: SinkRecord) => {
        const phase = phaseOf(Date.parse(r.receivedAt));
        repeats.set(phase, (repeats.get(phase) ?? 0) + 1);
      };
      // campaigns: every device of the snapshot, on its token, under one notificationId per (campaign, token)
      const byId = new Map<string, SinkRecord[]>();
      for (const r of received) if (r.data.campaignId) byId.set(String(r.data.notificationId), [...(byId.get(String(r.data.notificationId)) ?? []), r]);
      const idsPerCampaignToken = new Map<string, Set<string>>();
      for (const r of received) {
        if (!r.data.campaignId) continue;
        const k = `${r.data.campaignId}\n${r.token}`;
        idsPerCampaignToken.set(k, (idsPerCampaignToken.get(k) ?? new Set()).add(String(r.data.notificationId)));
      }
      for (const [id, e] of expected) {
        const got = byId.get(id)!;
        assert.ok(got.every((r) => r.token === e.token), `${e.what}: ${id} went to another device`);
        assert.ok(got.every((r) => Date.parse(r.receivedAt) >= e.notBefore), `${e.what}: a push before its scheduled time`);
        assert.equal(idsPerCampaignToken.get(`${got[0].data.campaignId}\n${e.token}`)!.size, 1, `${e.what}: ${e.token} got more than one notificationId`);
        got.slice(1).forEach(count);
      }
      // firings: one notificationId each, on the fired device, never before its delay
      const markers = byMarker(received);
      for (const f of fires) {
        const got = markers.get(f.marker)!;
        assert.equal(new Set(got.map((r) => String(r.data.notificationId))).size, 1, `${f.marker}: pushed under more than one notificationId`);
        assert.ok(got.every((r) => r.token === f.token), `${f.marker}: went to another device`);
        const firedAt = f.attempts[0].at;
        assert.ok(got.every((r) => Date.parse(r.receivedAt) >= firedAt + f.delayMs - 1000), `${f.marker}: pushed before its delay`);
        got.slice(1).forEach(count);
      }
      const later = fires.filter((f) => f.delayMs).length;
      return {
        repeats,
        summary: `${campaigns.length} campaigns (${expected.size} campaign pushes expected), ${fires.length} fires (${later} delayed a minute)`,
      };
    },
  };
}

/** A deadline that moves forward whenever `progress()` grows: it passes only after `ms` without progress. */
function stallDeadline(ms: number, progress: () => number): { passed(): boolean } {
  let seen = progress();
  let until = Date.now() + ms;
  return {
    passed() {
      const now = progress();
      if (now > seen) [seen, until] = [now, Date.now() + ms];
      return Date.now() > until;
    },
  };
}

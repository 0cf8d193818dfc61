// The campaign phases of `npm run bench:campaign`: the audience seeded through the
// devices repository, the sink's raw capacity for the campaign's mix (FCM and APNs at
// once), and one campaign sent through the API and followed to its last push at the sink.
import { randomUUID } from 'node:crypto';
import { connectDb } from '../../db/db';
import { insertDeviceRows, type NewDeviceRow } from '../../db/repositories/push-devices';
import { measureSinkCapacity, type SinkCapacity } from '../../scripts/push-sink/capacity';
import { sleep } from '../lib/procs';
import { BENCH_PASSWORD, sinkReader, type Tenant } from '../push/phases';

export const json = async (url: string, method: string, body: unknown, auth?: string, headers: Record<string, string> = {}) => {
  const res = await fetch(url, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(auth ? { authorization: auth } : {}), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text.slice(0, 500)}`);
  return text ? JSON.parse(text) : undefined;
};

/** A fresh access token for the tenant's account (they live 15 minutes; a full run is longer). */
export async function logIn(t: Tenant): Promise<void> {
  t.token = (await json(`${t.api}/api/v1/auth/login`, 'POST', { email: t.email, password: BENCH_PASSWORD })).accessToken;
}

/**
 * `count` active devices of the app, half Android (even n) and half iOS (odd n), written
 * through the devices repository in statements of `chunk` rows; answers their ids in order.
 */
export async function seedDevices(databaseUrl: string, appId: string, count: number, tag: string, chunk = 10_000): Promise<string[]> {
  const db = await connectDb(databaseUrl, 1);
  const ids: string[] = [];
  try {
    for (let from = 0; from < count; from += chunk) {
      const rows: NewDeviceRow[] = [];
      for (let n = from; n < Math.min(count, from + chunk); n++) {
        const id = randomUUID();
        ids.push(id);
        rows.push({ id, appId, deviceToken: `${tag}-${n}`, platform: n % 2 ? 'iOS' : 'Android', deviceMetadata: { country: 'DE', appVersion: '1.2.0' } });
      }
      await insertDeviceRows(db, rows);
    }
    // statistics for the grown table, as an established one has them (push_notifications is
    // left as a fresh deployment has it: docs/benchmarks.md, "Campaign benchmark", Results)
    await db.query('VACUUM (ANALYZE) push_devices');
  } finally {
    await db.close();
  }
  return ids;
}

export interface MixedCapacity {
  /** messages accepted per second by the sink, both services together */
  perSecond: number;
  messages: number;
  failures: number;
  seconds: number;
  fcm: SinkCapacity;
  apns: SinkCapacity;
}

/**
 * The sink's raw capacity for a campaign's mix: a bare HTTP/2 FCM client and a bare APNs
 * client at once, `concurrency` requests in flight each (scripts/push-sink/capacity.ts).
 */
export async function measureMixedCapacity(url: string, durationMs: number, concurrency: number): Promise<MixedCapacity> {
  const [fcm, apns] = await Promise.all((['fcm', 'apns'] as const).map((service) => measureSinkCapacity({ url, service, durationMs, concurrency })));
  const seconds = Math.max(fcm.seconds, apns.seconds);
  const messages = fcm.messages + apns.messages;
  return { perSecond: messages / seconds, messages, failures: fcm.failures + apns.failures, seconds, fcm, apns };
}

export interface CampaignPhase {
  campaignId: string;
  devices: number;
  estimatedRecipients: number | null;
  /** distinct devices (tokens) whose push reached the sink */
  received: number;
  /** sink records of the campaign beyond one per device (at least once: repeats should need a fault) */
  repeats: number;
  byPlatform: { fcm: number; apns: number };
  /** the send call's 202 (ms) */
  sendCallMs: number;
  /** from the send call to the sink's last record of the campaign (s) */
  timeToLastPushSec: number;
  /** from the send call to the sink's first record of the campaign (s) */
  timeToFirstPushSec: number;
  /** distinct devices ÷ time to last push */
  devicesPerSec: number;
  /** the campaign's status when the phase ended, and how long after the send call the API first said it */
  finalStatus: string;
  statusAfterSec: number | null;
  startedAt: string;
  endedAt: string;
}

const TERMINAL = new Set(['Completed', 'Cancelled', 'Failed']);

/**
 * Creates a campaign to every device of the app, sends it, and follows the sink until each
 * of `devices` devices has its push and the API says the campaign ended (at most `drainSec`).
 */
export async function campaignPhase(t: Tenant, o: { devices: number; sinkDir: string; drainSec: number; label: string }): Promise<CampaignPhase> {
  await logIn(t);
  const bearer = `Bearer ${t.token}`;
  const campaign = await json(`${t.api}/api/v1/campaigns`, 'POST', { appId: t.appId, name: `bench ${o.label}`, title: `Bench ${o.label}`, body: 'campaign fan-out', targetType: 'All' }, bearer);
  const campaignId: string = campaign.id;
  const newSinkLines = sinkReader(o.sinkDir);
  const tokens = new Set<string>();
  const byPlatform = { fcm: 0, apns: 0 };
  let records = 0;
  let first = Infinity;
  let last = -Infinity;
  const startedAt = new Date();
  const t0 = Date.now();
  const sent = await json(`${t.api}/api/v1/campaigns/${campaignId}/send`, 'POST', undefined, bearer, { 'idempotency-key': randomUUID() });
  const sendCallMs = Date.now() - t0;
  let status = String(sent.status ?? '?');
  let statusAt: number | null = null;
  let lastPoll = 0;
  const until = Date.now() + o.drainSec * 1000;
  while (Date.now() < until) {
    for (const r of newSinkLines()) {
      if (r.data.campaignId !== campaignId) continue;
      records++;
      tokens.add(r.token);
      byPlatform[r.service]++;
      const at = Date.parse(r.receivedAt);
      if (at < first) first = at;
      if (at > last) last = at;
    }
    if (Date.now() - lastPoll >= 1000) {
      lastPoll = Date.now();
      status = String((await json(`${t.api}/api/v1/campaigns/${campaignId}`, 'GET', undefined, bearer)).status);
      if (TERMINAL.has(status) && statusAt === null) statusAt = Date.now();
    }
    if ((tokens.size >= o.devices && TERMINAL.has(status)) || status === 'Failed' || status === 'Cancelled') break;
    await sleep(250);
  }
  const timeToLastPushSec = Number.isFinite(last) ? (last - t0) / 1000 : NaN;
  return {
    campaignId,
    devices: o.devices,
    estimatedRecipients: typeof sent.estimatedRecipients === 'number' ? sent.estimatedRecipients : null,
    received: tokens.size,
    repeats: records - tokens.size,
    byPlatform,
    sendCallMs,
    timeToLastPushSec,
    timeToFirstPushSec: Number.isFinite(first) ? (first - t0) / 1000 : NaN,
    devicesPerSec: tokens.size / timeToLastPushSec,
    finalStatus: status,
    statusAfterSec: statusAt === null ? null : (statusAt - t0) / 1000,
    startedAt: startedAt.toISOString(),
    endedAt: new Date().toISOString(),
  };
}

// The measured phases of `npm run bench:push`: device registration against its bare peer,
// the sink's raw capacity, and direct sends through the API, the workflow and the worker.
import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Pool } from 'pg';
import { demoCredentials } from '../../lib/push/demo-credentials';
import { percentile, runHttp, type RunStats } from '../lib/load';
import { sleep } from '../lib/procs';

export interface Tenant {
  api: string;
  /** the account's; its access token lives 15 minutes, a longer run logs in again (password BENCH_PASSWORD) */
  email: string;
  token: string;
  appId: string;
  apiKey: string;
}

const json = async (url: string, method: string, body: unknown, auth?: string) => {
  const res = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...(auth ? { authorization: auth } : {}) },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
};

export const BENCH_PASSWORD = 'bench password 1';

/** An account, an app with the sink's demo credentials, and an API key, over HTTP. */
export async function setUpTenant(api: string): Promise<Tenant> {
  const email = `bench-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const { accessToken: token } = await json(`${api}/api/v1/auth/register`, 'POST', { email, password: BENCH_PASSWORD, name: 'Bench' });
  const bearer = `Bearer ${token}`;
  const creds = demoCredentials();
  const app = await json(`${api}/api/v1/apps`, 'POST', { name: 'Bench', bundleId: creds.apns.bundleId, platform: 'Android' }, bearer);
  await json(`${api}/api/v1/apps/${app.id}/fcm-config`, 'PUT', { serviceAccountJson: creds.serviceAccountJson }, bearer);
  await json(`${api}/api/v1/apps/${app.id}/apns-config`, 'PUT', creds.apns, bearer);
  const key = await json(`${api}/api/v1/api-keys`, 'POST', { appId: app.id, name: 'bench' }, bearer);
  return { api, email, token, appId: app.id, apiKey: key.key };
}

/** POST /devices/register with unique tokens for `sec` seconds on `connections` connections. */
export function registerLoad(url: string, path: string, appId: string, o: { connections: number; sec: number; tag: string; apiKey?: string }): Promise<RunStats> {
  return runHttp({
    url,
    method: 'POST',
    connections: o.connections,
    durationSec: o.sec,
    headers: o.apiKey ? { authorization: `ApiKey ${o.apiKey}` } : {},
    next: (i) => ({
      path,
      body: JSON.stringify({ appId, deviceToken: `${o.tag}-${i}`, platform: 'Android', userId: `u${i}`, deviceMetadata: { country: 'DE', appVersion: '1.2.0' } }),
    }),
  });
}

/** `count` active Android devices of the app, written straight to the table. */
export async function insertDevices(pool: Pool, appId: string, count: number, tag: string): Promise<string[]> {
  const { rows } = await pool.query(
    `INSERT INTO push_devices (id, app_id, device_token, platform)
     SELECT gen_random_uuid(), $1, $2 || '-' || n, 'Android' FROM generate_series(1, $3) AS n RETURNING id`,
    [appId, tag, count],
  );
  return rows.map((r) => r.id);
}

export interface SendPhase {
  calls: number;
  devicesPerCall: number;
  pushes: number;
  received: number;
  /** pushes reaching the sink per second, from the first call to the last push */
  pushesPerSec: number;
  /** per call: API call start → its last device's push at the sink (ms) */
  callToLast: { p50: number; p99: number; max: number };
  /** per push: API call start → the push at the sink (ms) */
  perPush: { p50: number; p99: number };
  api: { p50: number; p99: number };
  wallSec: number;
}

/** one line of the sink's jsonl (scripts/push-sink/records.ts): the fields the benches read */
export type SinkLine = { service: 'fcm' | 'apns'; token: string; body: string | null; data: { notificationId: string; campaignId?: string }; receivedAt: string };

/**
 * The sink's records appended since the reader was made, each returned once: only the
 * bytes appended since the last call are read and parsed. Re-reading (and re-parsing)
 * whole files every 250 ms would take CPU from the very run it measures.
 */
export function sinkReader(dir: string): () => SinkLine[] {
  const services = ['fcm', 'apns'] as const;
  const files = services.map((s) => join(dir, `${s}.jsonl`));
  const sizeOf = (p: string) => (existsSync(p) ? statSync(p).size : 0);
  const offsets = new Map(files.map((p) => [p, sizeOf(p)])); // earlier rounds' records are not ours
  const partial = new Map<string, string>();
  return () => {
    const out: SinkLine[] = [];
    for (const [k, p] of files.entries()) {
      const from = offsets.get(p)!;
      const size = sizeOf(p);
      if (size <= from) continue;
      const buf = Buffer.alloc(size - from);
      const fd = openSync(p, 'r');
      try {
        readSync(fd, buf, 0, buf.length, from);
      } finally {
        closeSync(fd);
      }
      offsets.set(p, size);
      const lines = ((partial.get(p) ?? '') + buf.toString('utf8')).split('\n');
      partial.set(p, lines.pop() ?? ''); // a line still being written
      for (const line of lines) if (line) out.push({ ...JSON.parse(line), service: services[k] });
    }
    return out;
  };
}

/** `calls` sends of `deviceIds` at once; waits for every push at the sink (at most `drainSec`). */
export async function sendPhase(t: Tenant, deviceIds: string[], calls: number, sinkDir: string, drainSec: number): Promise<SendPhase> {
  const callOf = new Map<string, number>();
  const newSinkLines = sinkReader(sinkDir);
  const started: number[] = [];
  const apiMs: number[] = [];
  const t0 = Date.now();
  await Promise.all(
    Array.from({ length: calls }, async (_, c) => {
      started[c] = Date.now();
      const res = await json(`${t.api}/api/v1/notifications/send`, 'POST', { appId: t.appId, deviceIds, title: `Bench ${c}`, body: 'fan-out' }, `ApiKey ${t.apiKey}`);
      apiMs[c] = Date.now() - started[c];
      for (const id of res.notificationIds as string[]) callOf.set(id, c);
    }),
  );
  const expected = calls * deviceIds.length;
  const mine: Array<{ c: number; at: number }> = [];
  const until = Date.now() + drainSec * 1000;
  while (Date.now() < until) {
    for (const r of newSinkLines()) {
      const c = callOf.get(r.data.notificationId);
      if (c !== undefined) mine.push({ c, at: Date.parse(r.receivedAt) });
    }
    if (mine.length >= expected) break;
    await sleep(250);
  }
  const last = new Array<number>(calls).fill(NaN);
  for (const m of mine) last[m.c] = Number.isNaN(last[m.c]) ? m.at : Math.max(last[m.c], m.at);
  const callToLast = last.map((at, c) => at - started[c]).filter((x) => !Number.isNaN(x)).sort((a, b) => a - b);
  const perPush = mine.map((m) => m.at - started[m.c]).sort((a, b) => a - b);
  const end = Math.max(...mine.map((m) => m.at));
  const apiSorted = [...apiMs].sort((a, b) => a - b);
  return {
    calls,
    devicesPerCall: deviceIds.length,
    pushes: expected,
    received: mine.length,
    pushesPerSec: mine.length / ((end - t0) / 1000),
    callToLast: { p50: percentile(callToLast, 50), p99: percentile(callToLast, 99), max: callToLast[callToLast.length - 1] ?? NaN },
    perPush: { p50: percentile(perPush, 50), p99: percentile(perPush, 99) },
    api: { p50: percentile(apiSorted, 50), p99: percentile(apiSorted, 99) },
    wallSec: (end - t0) / 1000,
  };
}

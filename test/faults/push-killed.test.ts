// `npm run test:faults` (also part of `npm test`): the push service's fault run
// (docs/reliability.md: "each new API joins npm run test:faults, its own workers killed under its
// own load"). Careful clients register devices (POST /api/v1/devices/register, ApiKey)
// and send to batches of registered devices (POST /api/v1/notifications/send) while the
// push worker (kill -9), the Temporal server (kill -9), PostgreSQL (pg_ctl stop -m
// immediate) and Redis (kill -9) are killed in turn and restarted ~10 s later. Everything
// is the test's own (test/support/fault-services.ts): its PostgreSQL cluster, Redis,
// Temporal dev server, `push` worker process (queue `push`, with the start dispatcher of
// its outbox entries) and a push sink in this process, whose .jsonl files are what the
// devices "received". A send does not call Temporal: while Temporal is down sends are
// still answered 202 (their outbox entries wait), and their pushes arrive once it is back.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDataSource } from '../../db/data-source';
import { demoCredentials } from '../../lib/push/demo-credentials';
import { startPushSink, type PushSink } from '../../scripts/push-sink';
import type { TestApi } from '../support/api';
import { carefulClient, failuresOf, type CarefulClientOptions, type Operation } from '../support/careful-client';
import { phaseAt, printPhaseTable, type Phase } from '../support/fault-phases';
import { OwnPostgres, ownRedis, ownTemporal, startWorkersOn, stopFaultServices, workerProcess, type Restartable } from '../support/fault-services';
import { startPushApi } from '../support/push';
import { insertDevices, pushTenant, type PushTenant } from '../support/push-send';
import { campaignFaultLoad } from '../support/push-fault-campaigns';
import { sinkRecords, type SinkRecord } from '../support/push-sink';
import { setTimeout as sleep } from 'node:timers/promises';
import { oneFaultRunAtATime } from '../support/fault-run-lock';

const REGISTER_CLIENTS = 3;
const SEND_CLIENTS = 2;
const DOWN_MS = 10_000;
const ANSWER_BOUND_MS = 10_000;
const POOL = 200; // devices registered before the run, half Android, half iOS
const MAX_OPS = 1500; // a bound in operations beside the phases' time bound
const LEASE_SECONDS = 15;

let pg: OwnPostgres;
let redis: Restartable;
let temporal: Restartable;
let worker: Restartable;
let sink: PushSink;
let api: TestApi;
let tenant: PushTenant;
const tempDirs: string[] = [];

const tempDir = (tag: string) => (tempDirs.push(mkdtempSync(join(tmpdir(), tag))), tempDirs[tempDirs.length - 1]);

oneFaultRunAtATime('push'); // first: its services start once no other fault run holds the cores
beforeAll(async () => {
  pg = new OwnPostgres();
  redis = ownRedis();
  temporal = ownTemporal(join(tempDir('push-faults-temporal-'), 'temporal.sqlite'));
  const migrated = (async () => {
    await pg.init();
    const ds = createDataSource(pg.url, 2, 0);
    await ds.initialize();
    await ds.runMigrations();
    await ds.destroy();
  })();
  [sink] = await Promise.all([
    startPushSink({ dir: tempDir('push-faults-sink-'), host: '127.0.0.1', trust: [demoCredentials()] }),
    migrated,
    redis.start(),
    temporal.start(),
  ]);
  const env = {
    DATABASE_URL: pg.url,
    REDIS_URL: `redis://127.0.0.1:${redis.port}/0`,
    TEMPORAL_ADDRESS: `127.0.0.1:${temporal.port}`,
    TEMPORAL_SEARCH_ATTRIBUTES: 'off',
    IDEMPOTENCY_LEASE_SECONDS: String(LEASE_SECONDS),
  };
  process.env.IDEMPOTENCY_LEASE_SECONDS = String(LEASE_SECONDS);
  worker = workerProcess('push', { ...env, FCM_ENDPOINT: sink.url, APNS_ENDPOINT: sink.url, LOG_LEVEL: 'info' });
  [api] = await Promise.all([startPushApi(env), startWorkersOn(temporal, [worker])]);
  tenant = await pushTenant(api);
}, 120_000);

afterAll(async () => {
  await stopFaultServices({ api, processes: [worker, temporal, redis], pg });
  await sink?.close();
  for (const d of tempDirs) rmSync(d, { recursive: true, force: true });
});

interface Device {
  id: string;
  token: string;
  platform: 'Android' | 'iOS';
}
interface SendAnswer {
  notificationIds: string[];
  queued: number;
  rejected: number;
}

test('kill the push worker, Temporal, PostgreSQL and Redis in turn under a register, send, campaign and trigger load', async () => {
  const clientOf = (apiKey: string) =>
    carefulClient({
      baseUrl: api.baseUrl,
      headers: { authorization: `ApiKey ${apiKey}` },
      isEnvelope: (b) => typeof b?.message === 'string' && typeof b?.code === 'string',
      inProgress: (b) => b?.code === 'CONFLICT' && /in progress/i.test(b?.message ?? ''),
      answerBoundMs: ANSWER_BOUND_MS,
      retryDelayMs: 300,
    } satisfies CarefulClientOptions);
  const client = clientOf(tenant.apiKey);
  const pool: Device[] = (
    await insertDevices(api.deps.db, tenant.appId, POOL, { prefix: `pool-${Date.now()}`, platform: (n) => (n % 2 ? 'iOS' : 'Android') })
  ).map(({ id, token, platform }) => ({ id, token, platform }));
  // the campaign phase: a 10,000-device campaign mid-fan-out at the worker's kill, campaigns
  // sent and scheduled into every fault's down time, a stream of trigger firings
  const campaigns = await campaignFaultLoad({
    api,
    db: api.deps.db,
    tenant,
    client: (apiKey) => clientOf(apiKey).run,
    pool,
    sinkTotal: () => sink.counts.fcm + sink.counts.apns,
  });
  const registers: Array<Operation<{ id: string }> & { token: string; relaunchOf?: string }> = [];
  const sends: Array<Operation<SendAnswer> & { title: string; devices: Device[] }> = [];
  const registered: Device[] = [];
  const phases: Phase[] = [{ name: 'no fault', from: Date.now() }];
  let loadOn = true;
  const budgetLeft = () => loadOn && registers.length + sends.length < MAX_OPS;

  async function registerClient(n: number) {
    for (let i = 0; budgetLeft(); i++) {
      // every fourth call is a device launching again (a new key, the same token): same id
      const again = i % 4 === 3 && registered.length ? registered[(n * 7 + i) % registered.length] : undefined;
      const token = again?.token ?? `reg-${n}-${i}-${Date.now().toString(36)}`;
      const platform = again?.platform ?? (i % 2 ? 'iOS' : 'Android');
      const op = {
        path: '/api/v1/devices/register',
        key: `push-faults-reg-${n}-${i}`,
        body: { deviceToken: token, platform, userId: `player-${n}-${i}` },
        attempts: [],
        token,
        relaunchOf: again?.id,
      };
      registers.push(op);
      const { id } = await client.run<{ id: string }>(op);
      if (!again) registered.push({ id, token, platform });
      await sleep(500); // a steady load through every phase
    }
  }

  async function sendClient(n: number) {
    for (let i = 0; budgetLeft(); i++) {
      const candidates = [...pool, ...registered];
      const size = 10 + ((n * 13 + i * 7) % 31);
      const start = (n * 53 + i * 29) % candidates.length;
      const devices = Array.from({ length: size }, (_, k) => candidates[(start + k * 17) % candidates.length]);
      const unique = [...new Map(devices.map((d) => [d.id, d])).values()];
      const title = `faults send ${n}/${i}`;
      const op = {
        path: '/api/v1/notifications/send',
        key: `push-faults-send-${n}-${i}`,
        body: { appId: tenant.appId, deviceIds: unique.map((d) => d.id), title, body: 'fault run' },
        attempts: [],
        title,
        devices: unique,
      };
      sends.push(op);
      await client.run(op);
      await sleep(800);
    }
  }

  /** From the restart until a new device registers and a send to it reaches the sink. */
  /** From the restart until a new device registers and a send to it reaches the sink. */
  async function recoverySeconds(since: number): Promise<number> {
    const token = `probe-${since}`;
    const reg = await client.run<{ id: string }>({ path: '/api/v1/devices/register', key: `probe-reg-${since}`, body: { deviceToken: token, platform: 'Android' }, attempts: [] });
    const sent = await client.run<SendAnswer>({
      path: '/api/v1/notifications/send',
      key: `probe-send-${since}`,
      body: { appId: tenant.appId, deviceIds: [reg.id], title: 'probe', body: 'probe' },
      attempts: [],
    });
    const answered = Date.now();
    const [notificationId] = sent.notificationIds;
    while (!sinkRecords(sink.dir).some((r) => r.data.notificationId === notificationId)) await sleep(100);
    console.log(`probe after restart: register + send answered in ${answered - since} ms, the push at the sink ${Date.now() - answered} ms later`);
    return Math.round((Date.now() - since) / 100) / 10;
  }

  const load = [
    ...Array.from({ length: REGISTER_CLIENTS }, (_, n) => registerClient(n)),
    ...Array.from({ length: SEND_CLIENTS }, (_, n) => sendClient(n)),
    campaigns.fireClient(() => loadOn),
  ];
  const faults: Array<[string, () => void | Promise<void>, () => Promise<void>]> = [
    ['push worker (SIGKILL)', () => worker.kill9(), () => worker.start()],
    ['Temporal dev server (SIGKILL)', () => temporal.kill9(), () => temporal.start()],
    ['PostgreSQL (pg_ctl stop -m immediate)', () => pg.stopImmediate(), () => pg.start()],
    ['Redis (SIGKILL)', () => redis.kill9(), () => redis.start()],
  ];
  await sleep(3000);
  for (const [name, kill, restart] of faults) {
    await campaigns.beforeFault(name);
    const phase: Phase = { name, from: Date.now() };
    phases.push(phase);
    await kill();
    await sleep(DOWN_MS);
    await restart();
    const restartedAt = Date.now();
    // the worker may have given up while Temporal or PostgreSQL was down: a supervisor
    // (npm start) restarts it, so does this test
    if (!worker.running) await worker.start();
    phase.recoverySeconds = await recoverySeconds(restartedAt);
    await sleep(1000);
  }
  loadOn = false;
  await Promise.all(load);
  if (!worker.running) await worker.start();

  const phaseOf = (at: number) => phaseAt(phases, at);
  const ops: Operation[] = [...registers, ...sends, ...campaigns.operations()];
  const failures = failuresOf(ops);

  // every retrying client answered
  for (const op of ops) assert.ok(op.answer, `${op.key} never answered`);

  // registers: 0 lost, 0 duplicated (one row per token), the same id on every launch
  const rows = (await api.deps.db.query(`SELECT device_token AS token, array_agg(id) AS ids FROM push_devices WHERE app_id = $1 GROUP BY 1`, [tenant.appId])).rows;
  const idsByToken = new Map<string, string[]>(rows.map((r: { token: string; ids: string[] }) => [r.token, r.ids]));
  for (const r of registers) {
    assert.deepEqual(idsByToken.get(r.token), [r.answer!.id], `register ${r.key} (${r.token})`);
    if (r.relaunchOf) assert.equal(r.answer!.id, r.relaunchOf, `a second launch of ${r.token} got another id`);
  }

  // sends: every queued notificationId reaches the sink at least once, on its device
  const expected = new Map<string, { token: string; title: string }>();
  for (const s of sends) {
    assert.deepEqual([s.answer!.queued, s.answer!.rejected, s.answer!.notificationIds.length], [s.devices.length, 0, s.devices.length], s.key);
    s.answer!.notificationIds.forEach((id, k) => expected.set(id, { token: s.devices[k].token, title: s.title }));
  }
  const received = new Map<string, SinkRecord[]>();
  const deadline = Date.now() + 60_000;
  for (;;) {
    received.clear();
    for (const r of sinkRecords(sink.dir)) {
      const id = String(r.data.notificationId);
      if (!received.has(id)) received.set(id, []);
      received.get(id)!.push(r);
    }
    const missing = [...expected.keys()].filter((id) => !received.has(id));
    if (!missing.length) break;
    if (Date.now() > deadline) assert.fail(`${missing.length} acknowledged notifications never reached the sink\n${worker.output()}`);
    await sleep(500);
  }
  // every push of a send's title to a device carries that send's notificationId for it
  // (a retried request that made a second send would push another id), on the right token
  const byDeviceAndTitle = new Map<string, Set<string>>();
  for (const [id, records] of received) {
    for (const r of records) {
      if (!String(r.title).startsWith('faults send')) continue;
      const k = `${r.token}\n${r.title}`;
      if (!byDeviceAndTitle.has(k)) byDeviceAndTitle.set(k, new Set());
      byDeviceAndTitle.get(k)!.add(id);
    }
  }
  for (const [id, { token, title }] of expected) {
    assert.ok(received.get(id)!.every((r) => r.token === token), `${id} went to another device`);
    assert.deepEqual([...byDeviceAndTitle.get(`${token}\n${title}`)!], [id], `${token} got "${title}" under more than one notificationId`);
  }
  // repeats: by the phase in which the repeat arrived; none without a fault
  const repeats = new Map<string, number>();
  for (const id of expected.keys()) {
    for (const r of received.get(id)!.slice(1)) repeats.set(phaseOf(Date.parse(r.receivedAt)), (repeats.get(phaseOf(Date.parse(r.receivedAt))) ?? 0) + 1);
  }
  // campaigns and firings: every device of each campaign's snapshot and every firing at
  // the sink under one notificationId, none before its time (test/support/push-fault-campaigns.ts)
  const campaignCheck = await campaigns.check(() => sinkRecords(sink.dir), phaseOf, 150_000);
  for (const [phase, n] of campaignCheck.repeats) repeats.set(phase, (repeats.get(phase) ?? 0) + n);
  assert.equal(repeats.get('no fault') ?? 0, 0, 'repeats without a fault');

  // every failure a 503 (or 429) in the push envelope with Retry-After, or a 409 in
  // progress (also with Retry-After), answered within the bound
  for (const f of failures) {
    assert.ok(f.status === 503 || f.status === 429 || f.status === 409 || f.status === 'network', `a failure answered ${f.status}`);
    if (typeof f.status === 'number') assert.ok(f.envelope && f.retryAfter, `a ${f.status} without the push envelope or Retry-After`);
    assert.ok(f.ms <= ANSWER_BOUND_MS, `a failure answered after ${f.ms} ms`);
  }

  // 0 idempotency keys left in progress
  const inProgress = (await api.deps.db.query(`SELECT count(*)::int AS n FROM idempotency_keys WHERE status_code IS NULL AND key LIKE 'push-faults-%'`)).rows[0].n;
  assert.equal(inProgress, 0);

  printPhaseTable(phases, ops.flatMap((o) => o.attempts), failures, repeats);
  const repeated = [...repeats.values()].reduce((a, b) => a + b, 0);
  console.log(
    `push faults: ${registers.length} registers, ${sends.length} sends (${expected.size} notifications), ` +
      `${campaignCheck.summary}, ${failures.length} failed attempts (${failures.filter((f) => f.status === 503).length} × 503), ${repeated} repeated pushes`,
  );
}, 420_000);

// One more push worker started the README's way (`npm run worker -- push`, whose script is
// scripts/worker.ts) beside a running `npm start` joins that stack as npm start's own
// workers do: with none of the stack's variables in its environment (no Temporal address,
// no database, no FCM/APNs endpoints, no master key) it polls npm start's Temporal, reads
// its database, unseals the demo app's credentials with the checkout's key (.data/env) and
// sends to npm start's local push sink (<state>/push/*.jsonl), never to Google or Apple.
//
// Both push workers poll the `push` queue, so the test sends until one send's page was run
// by the extra worker (its identity, pid@host, is on the activity's start in the history)
// and then finds that send's pushes in the sink's files.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { join, resolve } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { Client as PgClient } from 'pg';
import { pushSendWorkflowId } from '../../workflows/push-send/contract';
import { STACK_ENV_KEYS } from '../../scripts/stack-env';
import { eventually } from '../support/eventually';
import { startNpmStart, type NpmStart } from '../support/npm-start';
import { sinkRecords } from '../support/push-sink';

const ROOT = resolve(__dirname, '..', '..');
const MAX_SENDS = 30;

let stack: NpmStart | undefined;
let connection: Connection | undefined;
let db: PgClient | undefined;
let extra: ReturnType<typeof spawn> | undefined;

afterAll(async () => {
  if (extra && extra.exitCode === null) {
    const gone = new Promise((r) => extra!.once('exit', r));
    extra.kill('SIGTERM');
    const t = setTimeout(() => extra!.kill('SIGKILL'), 10_000);
    await gone;
    clearTimeout(t);
  }
  await db?.end().catch(() => undefined);
  await connection?.close();
  if (stack?.proc.exitCode === null) {
    stack.proc.kill('SIGTERM');
    await Promise.race([stack.exited, sleep(30_000, undefined, { ref: false })]);
  }
  await stack?.cleanup();
});

test('an extra `npm run worker -- push` polls npm start’s Temporal and sends to its local push sink', async () => {
  stack = await startNpmStart('extra_worker');
  const { apiPort, state } = stack;
  const creds = /Demo credentials:\n([\s\S]*?)\n═/.exec(stack.output());
  assert.ok(creds, `no demo credentials in:\n${stack.output()}`);
  const push = JSON.parse(creds[1]).push as { appId: string; apiKey: string };
  const api = async (path: string, body: unknown) => {
    const res = await fetch(`http://127.0.0.1:${apiPort}${path}`, {
      method: 'POST',
      headers: { authorization: `ApiKey ${push.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  const deviceIds: string[] = [];
  for (const platform of ['Android', 'iOS']) {
    const res = await api('/api/v1/devices/register', { deviceToken: `extra-worker-${platform}`, platform, userId: `p-${platform}` });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    deviceIds.push(String(res.body.id));
  }

  // the README's command, minus npm and ensure.sh: none of the stack's variables set
  const env: NodeJS.ProcessEnv = { ...process.env, START_STATE_DIR: state, LOG_LEVEL: 'info', NO_COLOR: '1' };
  for (const k of [...STACK_ENV_KEYS, 'WEBHOOK_SECRET_KEY', 'PUSH_SINK_DIR', 'MAIL_SINK_DIR']) delete env[k];
  extra = spawn(process.execPath, ['--import', 'tsx', 'scripts/worker.ts', 'push'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let extraOut = '';
  extra.stdout!.on('data', (d) => (extraOut += d));
  extra.stderr!.on('data', (d) => (extraOut += d));
  await eventually(() => extraOut.includes('worker started') || extra!.exitCode !== null, { timeoutMs: 120_000, what: () => `the extra worker to start:\n${extraOut}` });
  assert.equal(extra.exitCode, null, `the extra worker exited:\n${extraOut}`);
  const identity = `${extra.pid}@${hostname()}`;

  connection = await Connection.connect({ address: `127.0.0.1:${stack.env.TEMPORAL_DEV_PORT}` });
  const client = new Client({ connection, namespace: 'default' });
  db = new PgClient({ connectionString: stack.databaseUrl });
  await db.connect();

  let byExtra: { sendId: string; notificationIds: string[] } | undefined;
  const seen: string[] = [];
  for (let n = 1; n <= MAX_SENDS && !byExtra; n++) {
    const res = await api('/api/v1/notifications/send', { appId: push.appId, deviceIds, title: `extra worker ${n}`, body: 'joins the stack' });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    const notificationIds = res.body.notificationIds as string[];
    const { rows } = await db.query(`SELECT send_id FROM push_notifications WHERE id = $1`, [notificationIds[0]]);
    const sendId: string = rows[0].send_id;
    const handle = client.workflow.getHandle(pushSendWorkflowId(sendId));
    await eventually(async () => (await handle.describe().catch(() => undefined))?.status.name === 'COMPLETED', {
      timeoutMs: 120_000,
      what: () => `send ${sendId} to complete; extra worker:\n${extraOut}`,
    });
    // who ran the page that sent the pushes (not only the send's closing activity)
    const events = (await handle.fetchHistory()).events ?? [];
    const typeOf = new Map(events.map((e) => [String(e.eventId), e.activityTaskScheduledEventAttributes?.activityType?.name]));
    const pageWorkers = events.flatMap((e) => {
      const started = e.activityTaskStartedEventAttributes;
      return started && typeOf.get(String(started.scheduledEventId)) === 'sendPushPage' ? [started.identity ?? '?'] : [];
    });
    seen.push(pageWorkers.join(','));
    if (pageWorkers.length > 0 && pageWorkers.every((w) => w === identity)) byExtra = { sendId, notificationIds };
  }
  assert.ok(byExtra, `no send of ${MAX_SENDS} ran on the extra worker (${identity}); activity workers per send: ${seen.join(' | ')}`);

  // what the extra worker sent is in npm start's sink: both pushes, FCM and APNs
  const received = await eventually(
    () => {
      const got = sinkRecords(join(state, 'push')).filter((r) => byExtra!.notificationIds.includes(String(r.data.notificationId)));
      return got.length === byExtra!.notificationIds.length && got;
    },
    { timeoutMs: 30_000, what: () => `the pushes of send ${byExtra!.sendId} in ${join(state, 'push')}; extra worker:\n${extraOut}` },
  );
  assert.deepEqual(received.map((r) => r.token).sort(), ['extra-worker-Android', 'extra-worker-iOS']);
  const { rows } = await db.query(`SELECT status, count(*)::int AS n FROM push_notifications WHERE send_id = $1 GROUP BY status`, [byExtra.sendId]);
  assert.deepEqual(rows, [{ status: 'sent', n: 2 }]);
}, 300_000);

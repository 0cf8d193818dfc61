// The platform token expiry timer on the time-skipping server with the real activity over
// the test database: a token made with 30, 60 or 90 days is marked expired (expired_at) by
// its workflow exactly at its expiry, not a minute before; a token that is gone by then
// ends the run as `gone`.
import assert from 'node:assert/strict';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { createPlatformTokenActivities } from '../../activities/platform/tokens';
import { connectDb, type Db } from '../../db/db';
import { createPlatformTenant } from '../../domain/platform/create-tenant';
import { issuePlatformToken } from '../../domain/platform/issue-token';
import type { TokenExpiryDays } from '../../domain/platform/windows.rules';
import { loadConfig } from '../../lib/config';
import { platformTokenExpiryStart } from '../../workflows/platform-token/contract';
import { eventually } from '../support/eventually';
import { timeSkippingEnv, workflowBundle } from '../support/temporal';

const TASK_QUEUE = 'platform-token-expiry-test';
const MIN = 60_000;
const DAY = 86_400_000;
const config = loadConfig();
let env: TestWorkflowEnvironment;
let worker: Worker;
let running: Promise<void>;
let db: Db;

beforeAll(async () => {
  db = await connectDb(config.databaseUrl, 5);
  env = await timeSkippingEnv();
  worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue: TASK_QUEUE,
    workflowBundle: await workflowBundle(),
    activities: createPlatformTokenActivities({ db }),
  });
  running = worker.run();
}, 120_000);

afterAll(async () => {
  worker?.shutdown();
  await running;
  await env?.teardown();
  await db?.close();
});

const serverNow = async () => new Date(await env.currentTimeMs());
const sleepUntil = async (at: number) => env.sleep(at - (await env.currentTimeMs()));
const expiredAt = async (tokenId: string) =>
  (await db.query(`SELECT expired_at AS "expiredAt" FROM platform_tokens WHERE id = $1`, [tokenId])).rows[0]?.expiredAt as Date | null | undefined;

/** A token made now (the server's time) with `days`, its timer started as the outbox dispatcher starts it. */
async function tokenWithTimer(days: TokenExpiryDays) {
  const now = await serverNow();
  const tenant = await createPlatformTenant(db, { name: `Expiry ${days} ${process.pid}`, now });
  const { token } = await issuePlatformToken(db, {
    organizationId: tenant.organizationId,
    workspaceId: tenant.workspaceId,
    userId: tenant.agentUserId,
    name: `${days} days`,
    environment: 'test',
    expiresInDays: days,
    now,
  });
  const start = platformTokenExpiryStart({ tokenId: token.id, expiresAt: new Date(token.expiresAt!).toISOString() });
  const handle = await env.client.workflow.start(start.workflowType, { taskQueue: TASK_QUEUE, workflowId: start.workflowId, args: start.args });
  return { token, handle, expiresAt: now.getTime() + days * DAY };
}

test('30, 60 and 90 days: each token is marked expired exactly at its expiry, not a minute before', async () => {
  const tokens = [];
  for (const days of [30, 60, 90] as const) tokens.push(await tokenWithTimer(days));
  for (const t of tokens) {
    assert.equal(new Date(t.token.expiresAt!).getTime(), t.expiresAt);
    await sleepUntil(t.expiresAt - MIN);
    assert.equal(await expiredAt(t.token.id), null, 'not marked a minute before');
    await sleepUntil(t.expiresAt);
    const at = await eventually(async () => (await expiredAt(t.token.id)) ?? undefined, { what: 'the timer marks the token expired' });
    assert.equal(at.getTime(), t.expiresAt, 'expired_at is the expiry itself');
  }
  // only now: waiting on a result lets the server skip time to the next timer
  for (const t of tokens) assert.equal(await t.handle.result(), 'expired');
});

test('a token removed before its expiry (its workspace purged): the run ends as gone', async () => {
  const t = await tokenWithTimer(30);
  await db.query(`DELETE FROM platform_tokens WHERE id = $1`, [t.token.id]);
  await sleepUntil(t.expiresAt);
  assert.equal(await t.handle.result(), 'gone');
});

// Retention of the events outbox and the idempotency keys: the purge workflows on the
// time-skipping server with their real activities, at the exact boundaries. Their
// schedules are checked with the others in maintenance.test.ts: every ensureSchedules
// call rewrites all of them, so the checks run in one file, one after the other.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { createMaintenanceActivities } from '../../activities/maintenance';
import { connectDb, type Db } from '../../db/db';
import { loadConfig } from '../../lib/config';
import { newId } from '../../lib/ids';
import { QUEUES } from '../../workers/registry';
import { purgeEventsWorkflow, purgeIdempotencyKeysWorkflow } from '../../workflows/maintenance';
import { timeSkippingEnv } from '../support/temporal';

let db: Db;
let env: TestWorkflowEnvironment;
beforeAll(async () => {
  db = await connectDb(loadConfig().databaseUrl, 4);
  env = await timeSkippingEnv();
});
afterAll(async () => {
  await env?.teardown();
  await db?.close();
});

/** The ticketing queue's bundle (where the purges run) with the real maintenance activities. */
async function purgeWorker() {
  const taskQueue = `retention-${randomUUID()}`;
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowsPath: QUEUES.ticketing.workflowsPath,
    activities: createMaintenanceActivities({ db }),
  });
  return { taskQueue, worker };
}

describe('idempotency keys', () => {
  const exists = async (apiKeyId: string) =>
    (await db.query('SELECT 1 FROM idempotency_keys WHERE api_key_id = $1', [apiKeyId])).rowCount === 1;
  /** A stored key created `age` ago (a Postgres interval). */
  async function keyAged(age: string, completed = true) {
    const apiKeyId = `key_${randomUUID()}`;
    await db.query(
      `INSERT INTO idempotency_keys (api_key_id, key, request_hash, status_code, response, created_at)
       VALUES ($1, 'k1', 'h', $2, $3, now() - $4::interval)`,
      [apiKeyId, completed ? 201 : null, completed ? '{"id":"x"}' : null, age],
    );
    return apiKeyId;
  }

  it('are kept 24 h: 23 h 59 min stays, 24 h 1 min goes, in batches', async () => {
    const young = await keyAged('23 hours 59 minutes');
    const old = [await keyAged('24 hours 1 minute'), await keyAged('3 days'), await keyAged('25 hours', false)];
    const { taskQueue, worker } = await purgeWorker();
    const result = await worker.runUntil(
      env.client.workflow.execute(purgeIdempotencyKeysWorkflow, { taskQueue, workflowId: `test/purge-keys/${randomUUID()}`, args: [{ batchSize: 1 }] }),
    );
    assert.ok(result.deleted >= 3);
    assert.equal(result.batches, result.deleted + 1, 'one batch per row, then a short one');
    for (const id of old) assert.equal(await exists(id), false, 'older than 24 h, finished or not');
    assert.equal(await exists(young), true);
  }, 60_000);
});

describe('outbox events', () => {
  const exists = async (id: string) => (await db.query('SELECT 1 FROM events WHERE id = $1', [id])).rowCount === 1;
  /** An event that occurred `occurred` ago and was dispatched `dispatched` ago (null: never). */
  async function event(occurred: string, dispatched: string | null) {
    const id = newId('evt');
    await db.query(
      `INSERT INTO events (id, workspace_id, type, subject_id, data, occurred_at, dedupe_key, claimed_at, dispatched_at, batch_id)
       VALUES ($1, 'ws_retention', 'player.created', 'kpl_x', '{}', now() - $2::interval, $1,
               now() - $3::interval, now() - $3::interval, $1)`,
      [id, occurred, dispatched],
    );
    return id;
  }

  it('are kept 7 days after dispatch: 6 d 23 h 59 min stays, 7 d 1 min goes; undispatched ones stay', async () => {
    const young = await event('7 days 1 hour', '6 days 23 hours 59 minutes'); // occurred earlier, dispatched late
    const old = [await event('7 days 2 minutes', '7 days 1 minute'), await event('30 days', '30 days')];
    const { taskQueue, worker } = await purgeWorker();
    const result = await worker.runUntil(
      env.client.workflow.execute(purgeEventsWorkflow, { taskQueue, workflowId: `test/purge-events/${randomUUID()}`, args: [{ batchSize: 1 }] }),
    );
    assert.ok(result.deleted >= 2);
    for (const id of old) assert.equal(await exists(id), false);
    assert.equal(await exists(young), true);
  }, 60_000);

  it('never purges an event that was not dispatched, however old', async () => {
    // claimed long ago and still undispatched: the dispatcher takes it up again, so it stays
    const id = newId('evt');
    await db.query(
      `INSERT INTO events (id, workspace_id, type, subject_id, data, occurred_at, dedupe_key)
       VALUES ($1, 'ws_retention', 'player.created', 'kpl_x', '{}', now() - interval '30 days', $1)`,
      [id],
    );
    // the suite's dispatcher may dispatch it right now (no endpoint subscribes): then it is
    // fresh; either way it must survive a purge
    const { purgeEvents } = createMaintenanceActivities({ db });
    await purgeEvents({ olderThanDays: 7 });
    assert.equal(await exists(id), true);
  });
});

import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Client, Connection, WorkflowFailedError } from '@temporalio/client';
import type { ApplicationFailure } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, Worker } from '@temporalio/worker';
import { createMaintenanceActivities } from '../../activities/maintenance';
import { connectDb, type Db } from '../../db/db';
import type { DeliveryStatus } from '../../db/repositories/webhook-deliveries';
import { loadConfig } from '../../lib/config';
import { ensureSchedules } from '../../workers/schedules';
import {
  PURGE_EVENTS_SCHEDULE_ID,
  PURGE_EVENTS_WORKFLOW_TYPE,
  PURGE_IDEMPOTENCY_KEYS_SCHEDULE_ID,
  PURGE_IDEMPOTENCY_KEYS_WORKFLOW_TYPE,
  PURGE_REVOKED_KEYS_SCHEDULE_ID,
  PURGE_REVOKED_KEYS_WORKFLOW_TYPE,
  PURGE_WEBHOOK_LOG_SCHEDULE_ID,
  PURGE_WEBHOOK_LOG_WORKFLOW_TYPE,
} from '../../workflows/maintenance/contract';
import { purgeRevokedKeysWorkflow, purgeWebhookLogWorkflow } from '../../workflows/maintenance';
import { purgePlan, shouldContinue } from '../../workflows/maintenance/purge.logic';
import { createApiKey, createOrganization, createTenant } from '../support/factories';
import { insertAttempt, insertEndpoint, insertLoggedDelivery } from '../support/webhook-factories';
import { timeSkippingEnv } from '../support/temporal';
import { keyExists, revokeKeyDaysAgo } from '../support/auth-factories';

const DAY = 24 * 3600 * 1000;
const noop = () => undefined;
const quiet = { log: noop, trace: noop, debug: noop, info: noop, warn: noop, error: noop };

/** The maintenance workflows and their real activities on a queue of their own. */
async function maintenanceWorker(env: TestWorkflowEnvironment, db: Db) {
  const taskQueue = `maintenance-${randomUUID()}`;
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: await bundleWorkflowCode({ workflowsPath: require.resolve('../../workflows/maintenance'), logger: quiet }),
    activities: createMaintenanceActivities({ db }),
  });
  return { taskQueue, worker };
}

describe('purge logic (pure)', () => {
  it('defaults to the spec retention and refuses nonsense', () => {
    assert.deepEqual(purgePlan(), { olderThanDays: 365, batchSize: 1000 });
    assert.throws(() => purgePlan({ olderThanDays: 0 }), RangeError);
    assert.throws(() => purgePlan({ olderThanDays: 1.5 }), RangeError);
    assert.throws(() => purgePlan({ batchSize: 0 }), RangeError);
    assert.equal(shouldContinue(1000, 1000, 1), true);
    assert.equal(shouldContinue(999, 1000, 1), false);
    assert.equal(shouldContinue(1000, 1000, 500), false);
  });
});

describe('purgeRevokedKeys', () => {
  let db: Db;
  beforeAll(async () => {
    db = await connectDb(loadConfig().databaseUrl, 4);
  });
  afterAll(async () => db?.close());

  async function fixture() {
    const org = await createOrganization(db);
    const old = await createApiKey(db, org);
    const recent = await createApiKey(db, org);
    const active = await createApiKey(db, org);
    await revokeKeyDaysAgo(db, old.id, 366);
    await revokeKeyDaysAgo(db, recent.id, 364);
    return { old, recent, active };
  }

  it('the activity deletes keys revoked 366 days ago and keeps those revoked 364 days ago', async () => {
    const { old, recent, active } = await fixture();
    const { purgeRevokedKeys } = createMaintenanceActivities({ db });
    const { deleted } = await purgeRevokedKeys({ olderThanDays: 365 });
    assert.ok(deleted >= 1);
    assert.equal(await keyExists(db, old.id), false);
    assert.equal(await keyExists(db, recent.id), true);
    assert.equal(await keyExists(db, active.id), true);
    // idempotent: running again finds nothing of ours
    await purgeRevokedKeys({ olderThanDays: 365 });
    assert.equal(await keyExists(db, recent.id), true);
  });

  it('the workflow purges in batches on the time-skipping server', async () => {
    const fixtures = [await fixture(), await fixture(), await fixture()];
    const env = await timeSkippingEnv();
    try {
      const { taskQueue, worker } = await maintenanceWorker(env, db);
      // one worker run for both executions: a Worker cannot be started twice
      const [result, failure] = await worker.runUntil(async () => {
        const ok = await env.client.workflow.execute(purgeRevokedKeysWorkflow, {
          taskQueue,
          workflowId: `test/purge/${randomUUID()}`,
          args: [{ olderThanDays: 365, batchSize: 1 }],
        });
        const bad = await env.client.workflow
          .execute(purgeRevokedKeysWorkflow, { taskQueue, workflowId: `test/purge/${randomUUID()}`, args: [{ olderThanDays: 0 }] })
          .then(() => null, (err: unknown) => err);
        return [ok, bad] as const;
      });
      assert.ok(result.deleted >= 3);
      assert.equal(result.batches, result.deleted + 1, 'one batch per row, then a short one');
      for (const f of fixtures) {
        assert.equal(await keyExists(db, f.old.id), false);
        assert.equal(await keyExists(db, f.recent.id), true);
        assert.equal(await keyExists(db, f.active.id), true);
      }
      assert.ok(failure instanceof WorkflowFailedError, 'bad input fails the run instead of retrying');
      assert.equal((failure.cause as ApplicationFailure).type, 'invalid_purge_input');
    } finally {
      await env.teardown();
    }
  });
});

describe('purgeWebhookLog', () => {
  let db: Db;
  beforeAll(async () => {
    db = await connectDb(loadConfig().databaseUrl, 4);
  });
  afterAll(async () => db?.close());

  const exists = async (id: string) => (await db.query('SELECT 1 FROM webhook_deliveries WHERE id = $1', [id])).rowCount === 1;
  const attempts = async (id: string) => (await db.query('SELECT 1 FROM webhook_attempts WHERE delivery_id = $1', [id])).rowCount;

  /** A finished delivery with one attempt, created `days` ago. */
  async function deliveryDaysAgo(workspaceId: string, days: number, status: DeliveryStatus = 'failed') {
    const { id: endpointId } = await insertEndpoint(db, { workspaceId, url: 'https://hooks.example.com/x', events: ['ticket.created'], key: Buffer.alloc(32, 7) });
    const deliveryId = await insertLoggedDelivery(db, { endpointId, workspaceId, status, createdAt: new Date(Date.now() - days * 86_400_000) });
    await insertAttempt(db, deliveryId, { attempt: 1, statusCode: 500, latencyMs: 0, error: null });
    return deliveryId;
  }

  it('keeps the delivery log 7 days: the workflow deletes older deliveries with their attempts, in batches', async () => {
    const ws = (await createTenant(db)).workspace.id;
    const old = [await deliveryDaysAgo(ws, 8), await deliveryDaysAgo(ws, 8, 'succeeded')];
    const recent = await deliveryDaysAgo(ws, 6, 'succeeded');
    const stillSending = await deliveryDaysAgo(ws, 8, 'pending'); // a late redelivery in progress
    const env = await timeSkippingEnv();
    try {
      const { taskQueue, worker } = await maintenanceWorker(env, db);
      const result = await worker.runUntil(
        env.client.workflow.execute(purgeWebhookLogWorkflow, { taskQueue, workflowId: `test/purge-log/${randomUUID()}`, args: [{ batchSize: 1 }] }),
      );
      assert.ok(result.deleted >= 2);
      assert.equal(result.batches, result.deleted + 1);
      for (const id of old) {
        assert.equal(await exists(id), false);
        assert.equal(await attempts(id), 0, 'attempts go with their delivery');
      }
      assert.equal(await exists(recent), true);
      assert.equal(await attempts(recent), 1);
      assert.equal(await exists(stillSending), true);
    } finally {
      await env.teardown();
    }
  });
});

describe('ensureSchedules', () => {
  it('ensureSchedules creates the hourly event and idempotency key purges', async () => {
    const connection = await Connection.connect({ address: loadConfig().temporalAddress });
    const client = new Client({ connection, namespace: loadConfig().temporalNamespace });
    try {
      await ensureSchedules(client);
      const events = await client.schedule.getHandle(PURGE_EVENTS_SCHEDULE_ID).describe();
      assert.equal(events.action.type, 'startWorkflow');
      assert.equal(events.action.workflowType, PURGE_EVENTS_WORKFLOW_TYPE);
      assert.deepEqual(events.action.args, [{ olderThanDays: 7 }]);
      assert.equal(events.info.nextActionTimes[0].getUTCMinutes(), 37);
      const keys = await client.schedule.getHandle(PURGE_IDEMPOTENCY_KEYS_SCHEDULE_ID).describe();
      assert.equal(keys.action.type, 'startWorkflow');
      assert.equal(keys.action.workflowType, PURGE_IDEMPOTENCY_KEYS_WORKFLOW_TYPE);
      assert.deepEqual(keys.action.args, [{ olderThanDays: 1 }]);
      assert.ok(keys.info.nextActionTimes[0].getTime() - Date.now() <= 3600 * 1000, 'runs within the hour');
    } finally {
      await connection.close();
    }
  });

  it('creates the hourly webhook log purge schedule', async () => {
    const connection = await Connection.connect({ address: loadConfig().temporalAddress });
    const client = new Client({ connection });
    try {
      await ensureSchedules(client);
      const d = await client.schedule.getHandle(PURGE_WEBHOOK_LOG_SCHEDULE_ID).describe();
      assert.equal(d.action.type, 'startWorkflow');
      assert.equal(d.action.workflowType, PURGE_WEBHOOK_LOG_WORKFLOW_TYPE);
      assert.deepEqual(d.action.args, [{ olderThanDays: 7 }]);
      const next = d.info.nextActionTimes[0];
      assert.ok(next.getTime() - Date.now() <= 3600 * 1000, 'runs within the hour');
      assert.equal(next.getUTCMinutes(), 23);
    } finally {
      await connection.close();
    }
  });

  it('creates the daily purge schedule idempotently', async () => {
    const connection = await Connection.connect({ address: loadConfig().temporalAddress });
    const client = new Client({ connection });
    try {
      const handle = client.schedule.getHandle(PURGE_REVOKED_KEYS_SCHEDULE_ID);
      // workers of an end-to-end run may have created it already: leave it as found
      const existed = await handle.describe().then(() => true, () => false);
      await handle.delete().catch(() => undefined);
      await ensureSchedules(client, { taskQueue: 'maintenance-test' });
      await ensureSchedules(client, { taskQueue: 'maintenance-test' }); // second call updates, no error
      const d = await handle.describe();
      assert.equal(d.action.type, 'startWorkflow');
      assert.equal(d.action.workflowType, PURGE_REVOKED_KEYS_WORKFLOW_TYPE);
      assert.equal(d.action.taskQueue, 'maintenance-test');
      assert.deepEqual(d.action.args, [{ olderThanDays: 365 }]);
      const cal = d.spec.calendars?.[0];
      assert.ok(cal, 'a calendar spec');
      assert.deepEqual(cal.hour, [{ start: 3, end: 3, step: 1 }]);
      const next = d.info.nextActionTimes[0];
      assert.ok(next.getTime() - Date.now() <= DAY, 'runs within the next day');
      if (existed) await ensureSchedules(client);
      else await handle.delete();
    } finally {
      await connection.close();
    }
  });
});

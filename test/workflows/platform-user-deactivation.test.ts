// The user-deactivation workflow on the time-skipping server with its real activities over
// the test database: the Update per open ticket (to a stand-in ticket workflow; a ticket
// whose workflow is gone is skipped, one whose start is still in the outbox is retried),
// reactivation at 89 d 23 h, and erasure of the personal data at exactly 90 d, after which
// the workflow has ended and the request path answers 410.
import assert from 'node:assert/strict';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { WorkflowNotFoundError } from '@temporalio/common';
import { bundleWorkflowCode, Worker } from '@temporalio/worker';
import { createPlatformUserActivities, unassignTicketOfUser } from '../../activities/platform/users';
import { connectDb, type Db } from '../../db/db';
import { findPlatformUserView } from '../../db/repositories/platform-users';
import { enqueueWorkflowStart, forgetWorkflowStarts } from '../../db/repositories/workflow-starts';
import { activationTokenKey } from '../../domain/platform/activation-token';
import { createPlatformTenant, type PlatformTenant } from '../../domain/platform/create-tenant';
import { reactivationRefusal } from '../../domain/platform/reactivate-user';
import { loadConfig } from '../../lib/config';
import { masterKey } from '../../lib/crypto/master-key';
import { newId } from '../../lib/ids';
import { NO_EMAIL } from '../../lib/email/no-email';
import { PLATFORM_TICKET_WORKFLOW_TYPE, platformTicketWorkflowId } from '../../workflows/platform-ticket/contract';
import {
  deactivationStateQuery,
  reactivateUpdate,
  USER_DEACTIVATION_WORKFLOW_TYPE,
  userDeactivationWorkflowId,
  type DeactivationResult,
} from '../../workflows/platform-user/contract';
import { eventually } from '../support/eventually';
import { timeSkippingEnv } from '../support/temporal';
import { unassignedUsersQuery } from './platform-user-fake-ticket.workflow';

const TASK_QUEUE = 'platform-user-deactivation-test';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const config = loadConfig();
let env: TestWorkflowEnvironment;
let worker: Worker;
let running: Promise<void>;
let db: Db;
let tenant: PlatformTenant;
let activities: ReturnType<typeof createPlatformUserActivities>;

beforeAll(async () => {
  db = await connectDb(config.databaseUrl, 5);
  env = await timeSkippingEnv();
  // pages of 2 tickets, so a deactivation with 3 reads two pages
  activities = createPlatformUserActivities({ db, chain: NO_EMAIL, tokenKey: activationTokenKey(masterKey(config)), appUrl: config.appUrl, client: env.client, unassignPageSize: 2 });
  const quiet = { log: () => undefined, trace: () => undefined, debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
  worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue: TASK_QUEUE,
    workflowBundle: await bundleWorkflowCode({ workflowsPath: require.resolve('./platform-user-fake-ticket.workflow'), logger: quiet }),
    activities,
  });
  running = worker.run();
  tenant = await createPlatformTenant(db, { name: `Deactivation ${process.pid}` });
}, 120_000);

afterAll(async () => {
  worker?.shutdown();
  await running;
  await env?.teardown();
  await db?.close();
});

/** A user of the tenant deactivated at the server's now (as DELETE /users/{id} leaves the row), with open tickets. */
async function deactivatedUser(tickets = 0) {
  const at = new Date(await env.currentTimeMs());
  const userId = newId('usr');
  await db.query(
    `INSERT INTO platform_users (id, organization_id, email, name, role, status, activated_at, deactivated_at, deactivations)
     VALUES ($1, $2, $3, 'Gone Agent', 'agent', 'deactivated', $4, $4, 1)`,
    [userId, tenant.organizationId, `${userId}@studio.example`, at],
  );
  const ticketIds: string[] = [];
  for (let i = 0; i < tickets; i++) {
    const id = newId('tkt');
    await db.query(
      `INSERT INTO platform_tickets (id, organization_id, workspace_id, environment, channel_id, subject, contact_email, priority, status, assignee_id)
       VALUES ($1, $2, $3, 'test', $4, 'Lag', 'player@example.com', 'high', 'open', $5)`,
      [id, tenant.organizationId, tenant.workspaceId, tenant.channelIds.chat, userId],
    );
    ticketIds.push(id);
  }
  const handle = await env.client.workflow.start(USER_DEACTIVATION_WORKFLOW_TYPE, {
    taskQueue: TASK_QUEUE,
    workflowId: userDeactivationWorkflowId(userId, 1),
    args: [{ userId, deactivation: 1, deactivatedAt: at.toISOString() }],
  });
  return { userId, at, ticketIds, handle };
}

const startFakeTicket = (ticketId: string) =>
  env.client.workflow.start('fakePlatformTicketWorkflow', { taskQueue: TASK_QUEUE, workflowId: platformTicketWorkflowId(ticketId), args: [ticketId] });
const sleepUntil = async (at: number) => env.sleep(at - (await env.currentTimeMs()));
const user = async (id: string) => (await findPlatformUserView(db, id))!;

test('the unassign activity: an Update to the ticket workflow; gone is skipped, a start still in the outbox is retried', async () => {
  const userId = newId('usr');
  const running = newId('tkt');
  await startFakeTicket(running);
  assert.equal(await unassignTicketOfUser({ db, client: env.client }, running, userId), 'unassigned');
  assert.deepEqual(await env.client.workflow.getHandle(platformTicketWorkflowId(running)).query(unassignedUsersQuery), [userId]);
  assert.equal(await unassignTicketOfUser({ db, client: env.client }, newId('tkt'), userId), 'skipped');

  const pending = newId('tkt');
  const workflowId = platformTicketWorkflowId(pending);
  // on a queue no start dispatcher serves: the entry stays pending until the test forgets it
  await enqueueWorkflowStart(db, { workflowId, workflowType: PLATFORM_TICKET_WORKFLOW_TYPE, taskQueue: TASK_QUEUE, args: [{ ticketId: pending }] });
  await assert.rejects(unassignTicketOfUser({ db, client: env.client }, pending, userId), /not started yet/);
  await forgetWorkflowStarts(db, [workflowId]);
  assert.equal(await unassignTicketOfUser({ db, client: env.client }, pending, userId), 'skipped');
});

test('unassigns each open ticket through its workflow (in pages), then is reactivatable at 89 d 23 h', async () => {
  const d = await deactivatedUser(3);
  await startFakeTicket(d.ticketIds[0]); // the second ticket's workflow has ended: skipped
  await startFakeTicket(d.ticketIds[2]); // on the second page
  await eventually(async () => (await d.handle.query(deactivationStateQuery)) === 'waiting', { what: 'unassigning done' });
  for (const i of [0, 2]) {
    assert.deepEqual(await env.client.workflow.getHandle(platformTicketWorkflowId(d.ticketIds[i])).query(unassignedUsersQuery), [d.userId]);
  }

  await sleepUntil(d.at.getTime() + 90 * DAY - HOUR);
  assert.equal((await user(d.userId)).status, 'deactivated');
  const reply = await d.handle.executeUpdate(reactivateUpdate);
  assert.deepEqual(reply, { userId: d.userId, status: 'active' });
  const result: DeactivationResult = await d.handle.result();
  assert.deepEqual(result, { outcome: 'reactivated', unassigned: 2, skipped: 1 });
  const back = await user(d.userId);
  assert.deepEqual([back.status, back.deactivatedAt, back.email !== null], ['active', null, true]);
});

test('at 90 d the personal data is erased and the workflow ends: a reactivation is then a 410', async () => {
  const d = await deactivatedUser();
  await eventually(async () => (await d.handle.query(deactivationStateQuery)) === 'waiting', { what: 'waiting' });
  await sleepUntil(d.at.getTime() + 90 * DAY - 60_000);
  assert.equal((await user(d.userId)).status, 'deactivated', 'not a minute early');
  await sleepUntil(d.at.getTime() + 90 * DAY);
  const result: DeactivationResult = await d.handle.result();
  assert.equal(result.outcome, 'erased');
  const erased = await user(d.userId);
  assert.deepEqual([erased.status, erased.email, erased.name], ['erased', null, null]);
  assert.equal(erased.erasedAt!.getTime(), d.at.getTime() + 90 * DAY);
  await assert.rejects(d.handle.executeUpdate(reactivateUpdate), WorkflowNotFoundError);
  // what the API answers then (api/platform/users/gateway.ts onEnded, and before it the request path)
  const refusal = reactivationRefusal(erased, new Date(await env.currentTimeMs()));
  assert.equal(refusal?.kind, 'gone');
});

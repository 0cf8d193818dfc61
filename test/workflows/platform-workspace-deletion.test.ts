// A workspace's deletion workflow on the time-skipping server with its real activities
// over the test database: at 29 d 23 h the workspace and its data are still there and a
// restore (the workflow's Update) sets it active and ends the run; a minute before 30 d
// nothing is gone, and at 30 d the workspace is removed with its channels, memberships,
// tokens, tickets, replies, platform events and pending workflow starts, while its users
// and another tenant's data stay.
import assert from 'node:assert/strict';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { createPlatformWorkspaceActivities } from '../../activities/platform/workspaces';
import { connectDb, type Db } from '../../db/db';
import { enqueueWorkflowStart, findWorkflowStart, forgetWorkflowStarts } from '../../db/repositories/workflow-starts';
import { createPlatformTenant, type PlatformTenant } from '../../domain/platform/create-tenant';
import { scheduleWorkspaceDeletion } from '../../domain/platform/schedule-workspace-deletion';
import { loadConfig } from '../../lib/config';
import { newId } from '../../lib/ids';
import { platformTicketWorkflowId } from '../../workflows/platform-ticket/contract';
import {
  PLATFORM_WORKSPACE_DELETION_WORKFLOW_TYPE,
  platformWorkspaceDeletionStart,
  restoreUpdate,
  type WorkspaceDeletionInput,
} from '../../workflows/platform-workspace/contract';
import { eventually } from '../support/eventually';
import { timeSkippingEnv, workflowBundle } from '../support/temporal';

const TASK_QUEUE = 'platform-workspace-deletion-test';
/** a queue no dispatcher claims: the test's pending starts stay where the purge must find them */
const UNCLAIMED_QUEUE = 'platform-workspace-deletion-test-unclaimed';
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const config = loadConfig();
let env: TestWorkflowEnvironment;
let worker: Worker;
let running: Promise<void>;
let db: Db;
let tenants = 0;

beforeAll(async () => {
  db = await connectDb(config.databaseUrl, 5);
  env = await timeSkippingEnv();
  worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue: TASK_QUEUE,
    workflowBundle: await workflowBundle(),
    activities: createPlatformWorkspaceActivities({ db, client: env.client }),
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
const count = async (table: string, column: string, value: string) =>
  (await db.query(`SELECT count(*)::int AS n FROM ${table} WHERE ${column} = $1`, [value])).rows[0].n as number;

/** A tenant with a ticket, a reply, a platform event and a pending start of the ticket's workflow in its workspace. */
async function tenantWithData(): Promise<PlatformTenant & { ticketId: string; eventId: string }> {
  tenants += 1;
  const t = await createPlatformTenant(db, { name: `Deletion ${process.pid}-${tenants}` });
  const ticketId = newId('tkt');
  await db.query(
    `INSERT INTO platform_tickets (id, organization_id, workspace_id, environment, channel_id, subject, contact_email, priority, assignee_id, created_by)
     VALUES ($1, $2, $3, 'test', $4, 'Lost items', 'player@example.com', 'normal', $5, $5)`,
    [ticketId, t.organizationId, t.workspaceId, t.channelIds.email, t.agentUserId],
  );
  await db.query(`INSERT INTO platform_ticket_replies (id, ticket_id, author_id, body) VALUES ($1, $2, $3, 'On it')`, [newId('rpl'), ticketId, t.agentUserId]);
  const eventId = newId('evt');
  await db.query(
    `INSERT INTO events (id, workspace_id, type, subject_id, data, occurred_at, dedupe_key, api) VALUES ($1, $2, 'ticket.created', $3, '{}', now(), $1, 'platform')`,
    [eventId, t.workspaceId, ticketId],
  );
  await enqueueWorkflowStart(db, { workflowId: platformTicketWorkflowId(ticketId), workflowType: 'platformTicketWorkflow', taskQueue: UNCLAIMED_QUEUE, args: [{ ticketId }] });
  return { ...t, ticketId, eventId };
}

/** Schedules the deletion at the server's time as DELETE does, and starts its workflow from the entry the transaction wrote. */
async function deleteWorkspace(t: PlatformTenant) {
  const caller = { organizationId: t.organizationId, workspaceId: t.workspaceId, userId: t.adminUserId, role: 'admin' as const, isOrgAdmin: true };
  const { workspace, scheduled } = await scheduleWorkspaceDeletion(db, caller, t.workspaceId, await serverNow(), (d) => ({ ...platformWorkspaceDeletionStart(d), taskQueue: UNCLAIMED_QUEUE }));
  assert.equal(scheduled, true);
  const requestedAt = new Date(workspace.deletionRequestedAt!).toISOString();
  const entry = platformWorkspaceDeletionStart({ workspaceId: t.workspaceId, requestedAt, purgeAt: new Date(workspace.purgeAt!).toISOString() });
  const pending = await findWorkflowStart(db, entry.workflowId);
  assert.ok(pending, 'the outbox entry committed with the row');
  await forgetWorkflowStarts(db, [entry.workflowId]);
  const input = pending.args[0] as WorkspaceDeletionInput;
  const handle = await env.client.workflow.start(PLATFORM_WORKSPACE_DELETION_WORKFLOW_TYPE, { taskQueue: TASK_QUEUE, workflowId: entry.workflowId, args: [input] });
  return { handle, purgeAt: Date.parse(input.purgeAt), requestedAt: Date.parse(input.requestedAt) };
}

const rowOf = async (id: string) => (await db.query(`SELECT status, purge_at FROM platform_workspaces WHERE id = $1`, [id])).rows[0] as { status: string; purge_at: Date | null } | undefined;

test('restorable at 29 d 23 h: the Update sets it active, its data untouched, and the run ends', async () => {
  const t = await tenantWithData();
  const { handle, purgeAt, requestedAt } = await deleteWorkspace(t);
  assert.equal(purgeAt - requestedAt, 30 * DAY);

  await sleepUntil(requestedAt + 29 * DAY + 23 * HOUR);
  assert.equal((await rowOf(t.workspaceId))?.status, 'pending_deletion');
  assert.equal(await count('platform_tickets', 'workspace_id', t.workspaceId), 1);
  const reply = await handle.executeUpdate(restoreUpdate, { args: [{ actorId: t.adminUserId }] });
  assert.deepEqual(reply, { workspaceId: t.workspaceId, status: 'active' });
  assert.equal(await handle.result(), 'restored');
  const row = await rowOf(t.workspaceId);
  assert.equal(row?.status, 'active');
  assert.equal(row?.purge_at, null);

  await sleepUntil(purgeAt + HOUR);
  assert.equal(await count('platform_tickets', 'workspace_id', t.workspaceId), 1, 'nothing removed after a restore');
  assert.equal(await count('platform_channels', 'workspace_id', t.workspaceId), 5);
});

test('gone at 30 d with all its data (not a minute earlier); its users and another tenant stay', async () => {
  const t = await tenantWithData();
  const bystander = await tenantWithData();
  // a second, open ticket whose run waits under platform-ticket/<id> (a stand-in that sleeps
  // for a year): the purge must end it, as nothing could reach it once its row is gone
  const open = newId('tkt');
  await db.query(
    `INSERT INTO platform_tickets (id, organization_id, workspace_id, environment, channel_id, subject, contact_email, priority)
     VALUES ($1, $2, $3, 'test', $4, 'Still open', 'player@example.com', 'normal')`,
    [open, t.organizationId, t.workspaceId, t.channelIds.email],
  );
  const standIn = await env.client.workflow.start('platformTokenExpiryWorkflow', {
    taskQueue: TASK_QUEUE,
    workflowId: platformTicketWorkflowId(open),
    args: [{ tokenId: open, expiresAt: new Date((await env.currentTimeMs()) + 365 * DAY).toISOString() }],
  });
  const { handle, purgeAt } = await deleteWorkspace(t);

  await sleepUntil(purgeAt - MIN);
  assert.equal((await rowOf(t.workspaceId))?.status, 'pending_deletion', 'still there a minute before');
  assert.equal(await count('platform_tickets', 'workspace_id', t.workspaceId), 2);
  assert.equal((await standIn.describe()).status.name, 'RUNNING', "the open ticket's run is left alone until the purge");

  await sleepUntil(purgeAt);
  assert.equal(await handle.result(), 'purged');
  await eventually(async () => (await rowOf(t.workspaceId)) === undefined, { what: 'the workspace removed' });
  for (const [table, column] of [
    ['platform_channels', 'workspace_id'],
    ['platform_memberships', 'workspace_id'],
    ['platform_tokens', 'workspace_id'],
    ['platform_tickets', 'workspace_id'],
    ['events', 'workspace_id'],
  ]) {
    assert.equal(await count(table, column, t.workspaceId), 0, `${table} of the workspace removed`);
    assert.ok((await count(table, column, bystander.workspaceId)) > 0, `${table} of another tenant kept`);
  }
  assert.equal(await count('platform_ticket_replies', 'ticket_id', t.ticketId), 0);
  assert.equal(await findWorkflowStart(db, platformTicketWorkflowId(t.ticketId)), null, "the ticket's pending start removed");
  assert.ok(await findWorkflowStart(db, platformTicketWorkflowId(bystander.ticketId)), "another tenant's pending start kept");
  assert.equal(await count('platform_users', 'organization_id', t.organizationId), 2, "the organisation's users stay");
  assert.equal((await standIn.describe()).status.name, 'CANCELLED', "the open ticket's run was ended with its workspace");
  await forgetWorkflowStarts(db, [platformTicketWorkflowId(bystander.ticketId)]);
});

// SLA breaches of the platform ticket workflow on the time-skipping server, with its real
// activities over the test database (docs/platform.md, "SLA breaches"): a breach at its
// exact deadline (nothing a second before), a reply in time and a resolve in time that
// prevent theirs, a priority change that moves the deadline, a soft delete that holds the
// breach until the restore, and one event per policy even when the breach's answer is lost
// and the activity retried. Default policies: critical 1 h first response, 8 h resolution;
// high 4 h and 24 h.
import assert from 'node:assert/strict';
import { setTimeout as pause } from 'node:timers/promises';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { createPlatformTicketActivities } from '../../activities/platform/tickets';
import { connectDb, type Db } from '../../db/db';
import { findPlatformTicketSla } from '../../db/repositories/platform-ticket-sla';
import { createPlatformTenant, type PlatformTenant } from '../../domain/platform/create-tenant';
import { createPlatformTicket } from '../../domain/platform/create-ticket';
import { draftPlatformReply } from '../../domain/platform/reply-draft';
import { readPlatformTicketSla } from '../../domain/platform/ticket-sla';
import { PlatformFirstResponseBackfill1732240000030 } from '../../db/migrations/1732240000030-PlatformFirstResponseBackfill';
import type { PlatformTicketPriority } from '../../domain/platform/types';
import { loadConfig } from '../../lib/config';
import { newId } from '../../lib/ids';
import {
  deleteTicketUpdate,
  patchTicketUpdate,
  PLATFORM_TICKET_WORKFLOW_TYPE,
  platformTicketWorkflowId,
  replyTicketUpdate,
  restoreTicketUpdate,
  type PlatformTicketActivities,
} from '../../workflows/platform-ticket/contract';
import { eventually } from '../support/eventually';
import { platformTicketActivities } from '../support/platform-ticket-activities';
import { timeSkippingEnv } from '../support/temporal';

const TASK_QUEUE = 'platform-ticket-sla-test';
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const config = loadConfig();
let env: TestWorkflowEnvironment;
let worker: Worker;
let running: Promise<void>;
let db: Db;
let tenant: PlatformTenant;
/** tickets whose first breach answer is lost after it committed (the activity is retried) */
const loseFirstBreachAnswer = new Set<string>();
let breachCalls = 0;

beforeAll(async () => {
  db = await connectDb(config.databaseUrl, 5);
  tenant = await createPlatformTenant(db, { name: `SLA ${process.pid}` });
  env = await timeSkippingEnv();
  const real = createPlatformTicketActivities({ db });
  const activities = platformTicketActivities(db, {
    async breachPlatformTicketSla(req: Parameters<PlatformTicketActivities['breachPlatformTicketSla']>[0]) {
      breachCalls++;
      const result = await real.breachPlatformTicketSla(req);
      if (loseFirstBreachAnswer.delete(req.ticketId)) throw new Error('the answer was lost after the commit');
      return result;
    },
  });
  worker = await Worker.create({ connection: env.nativeConnection, taskQueue: TASK_QUEUE, workflowsPath: require.resolve('../../workflows/queues/platform'), activities });
  running = worker.run();
}, 120_000);

afterAll(async () => {
  worker?.shutdown();
  await running;
  await env?.teardown();
  await db?.close();
});

/** A stored ticket (as the API writes it) and its running workflow; `createdAt` in ms. */
async function ticket(priority: PlatformTicketPriority = 'critical') {
  const ticketId = newId('tkt');
  const caller = { organizationId: tenant.organizationId, workspaceId: tenant.workspaceId, userId: tenant.adminUserId, role: 'admin' as const, isOrgAdmin: true };
  const createdAt = await env.currentTimeMs();
  await db.transaction((m) =>
    createPlatformTicket(m, caller, {
      ticketId, environment: 'test', channelId: tenant.channelIds.email, subject: 'Account locked', body: 'Help', contactEmail: 'p@example.com',
      priority, assigneeId: null, tags: [], now: new Date(createdAt),
    }),
  );
  const handle = await env.client.workflow.start(PLATFORM_TICKET_WORKFLOW_TYPE, {
    taskQueue: TASK_QUEUE,
    workflowId: platformTicketWorkflowId(ticketId),
    args: [{ ticketId, workspaceId: tenant.workspaceId, assigneeId: null }],
  });
  return { ticketId, handle, createdAt };
}

const sleepUntil = async (at: number) => env.sleep(Math.max(at - (await env.currentTimeMs()), 0));
const iso = (ms: number) => new Date(ms).toISOString();

interface BreachEvent {
  data: { ticket_id: string; policy: string; priority: string; due_at: string; breached_at: string; ticket: { id: string; priority: string } };
  occurred_at: Date;
  api: string;
}
async function breachEvents(ticketId: string): Promise<BreachEvent[]> {
  const { rows } = await db.query(`SELECT data, occurred_at, api FROM events WHERE subject_id = $1 AND type = 'ticket.sla_breached' ORDER BY occurred_at`, [ticketId]);
  return rows as BreachEvent[];
}
const slaRow = async (ticketId: string) => (await findPlatformTicketSla(db, ticketId))!;

/**
 * Nothing recorded: the event and column are absent. After a deadline has gone by, the
 * worker is first given a moment to run anything due (`settle`); a second before one,
 * nothing can be due yet, and the check runs at once (the server's clock moves in real time
 * between two skips, so a pause would eat into that second).
 */
async function assertNoBreach(ticketId: string, policy: 'first_response' | 'resolution', settle = true) {
  if (settle) await pause(300);
  assert.deepEqual((await breachEvents(ticketId)).filter((e) => e.data.policy === policy), []);
  const row = await slaRow(ticketId);
  assert.equal(policy === 'first_response' ? row.firstResponseBreachedAt : row.resolutionBreachedAt, null);
}

const breached = (ticketId: string, policy: 'first_response' | 'resolution') =>
  eventually(async () => (await breachEvents(ticketId)).find((e) => e.data.policy === policy), { what: `${policy} breach of ${ticketId}` });

test('the first-response breach fires at its exact deadline, not a second before, and the resolution one at its own', async () => {
  const t = await ticket('critical');
  const due = t.createdAt + 1 * HOUR;
  await sleepUntil(due - SECOND);
  await assertNoBreach(t.ticketId, 'first_response', false);
  await sleepUntil(due);
  const event = await breached(t.ticketId, 'first_response');
  assert.equal(event.api, 'platform');
  assert.equal(event.data.ticket_id, t.ticketId);
  assert.equal(event.data.priority, 'critical');
  assert.equal(event.data.due_at, iso(due));
  assert.equal(event.data.breached_at, iso(due));
  assert.equal(event.data.ticket.id, t.ticketId);
  assert.equal((await slaRow(t.ticketId)).firstResponseBreachedAt?.toISOString(), iso(due));
  // the resolution policy is its own: 8 h, once
  await sleepUntil(t.createdAt + 8 * HOUR - SECOND);
  await assertNoBreach(t.ticketId, 'resolution', false);
  await sleepUntil(t.createdAt + 8 * HOUR);
  await breached(t.ticketId, 'resolution');
  assert.equal((await slaRow(t.ticketId)).resolutionBreachedAt?.toISOString(), iso(t.createdAt + 8 * HOUR));
  await sleepUntil(t.createdAt + 48 * HOUR);
  assert.equal((await breachEvents(t.ticketId)).length, 2, 'one event per policy');
});

test('a reply in time meets the first response (first_response_at set): no breach at or after the deadline', async () => {
  const t = await ticket('critical');
  await sleepUntil(t.createdAt + 59 * MINUTE);
  const replyId = await draftPlatformReply(db, t.ticketId, tenant.agentUserId, 'On it');
  await t.handle.executeUpdate(replyTicketUpdate, { args: [{ replyId }] });
  const answered = (await slaRow(t.ticketId)).firstResponseAt;
  assert.ok(answered, 'first_response_at is set by the first reply');
  const second = await draftPlatformReply(db, t.ticketId, tenant.agentUserId, 'Still on it');
  await t.handle.executeUpdate(replyTicketUpdate, { args: [{ replyId: second }] });
  assert.equal((await slaRow(t.ticketId)).firstResponseAt?.toISOString(), answered.toISOString(), 'a later reply keeps the first time');
  await sleepUntil(t.createdAt + 2 * HOUR);
  await assertNoBreach(t.ticketId, 'first_response');
});

test('resolving in time meets the resolution; reopened after the deadline, it breaches at once with the deadline as its time', async () => {
  const t = await ticket('critical');
  const replyId = await draftPlatformReply(db, t.ticketId, tenant.agentUserId, 'Looking');
  await t.handle.executeUpdate(replyTicketUpdate, { args: [{ replyId }] });
  await sleepUntil(t.createdAt + 7 * HOUR);
  await t.handle.executeUpdate(patchTicketUpdate, { args: [{ status: 'resolved' }] });
  await sleepUntil(t.createdAt + 9 * HOUR);
  await assertNoBreach(t.ticketId, 'resolution');
  await t.handle.executeUpdate(patchTicketUpdate, { args: [{ status: 'open' }] });
  const event = await breached(t.ticketId, 'resolution');
  assert.equal(event.data.due_at, iso(t.createdAt + 8 * HOUR));
  await assertNoBreach(t.ticketId, 'first_response');
});

test('a priority change recomputes the deadlines from created_at with the new priority', async () => {
  const t = await ticket('critical');
  await sleepUntil(t.createdAt + 30 * MINUTE);
  await t.handle.executeUpdate(patchTicketUpdate, { args: [{ priority: 'high' }] });
  await sleepUntil(t.createdAt + 4 * HOUR - SECOND);
  await assertNoBreach(t.ticketId, 'first_response', false); // critical's 1 h has passed long ago: moved
  await sleepUntil(t.createdAt + 4 * HOUR);
  const event = await breached(t.ticketId, 'first_response');
  assert.equal(event.data.priority, 'high');
  assert.equal(event.data.due_at, iso(t.createdAt + 4 * HOUR));
  // at 10 h (high's resolution: 24 h) raised to critical, whose 8 h have gone by: the breach is at once, due at 8 h
  await sleepUntil(t.createdAt + 10 * HOUR);
  await assertNoBreach(t.ticketId, 'resolution');
  await t.handle.executeUpdate(patchTicketUpdate, { args: [{ priority: 'critical' }] });
  const resolution = await breached(t.ticketId, 'resolution');
  assert.equal(resolution.data.due_at, iso(t.createdAt + 8 * HOUR));
  assert.equal(resolution.data.priority, 'critical');
});

test('no breach while soft-deleted; restored after the deadline, the breach is recorded then', async () => {
  const t = await ticket('critical');
  await t.handle.executeUpdate(deleteTicketUpdate);
  await sleepUntil(t.createdAt + 2 * HOUR);
  await assertNoBreach(t.ticketId, 'first_response');
  await t.handle.executeUpdate(restoreTicketUpdate);
  const event = await breached(t.ticketId, 'first_response');
  assert.equal(event.data.due_at, iso(t.createdAt + HOUR));
});

test('a breach whose answer is lost is retried and recorded once: one column value, one event per policy', async () => {
  const t = await ticket('critical');
  loseFirstBreachAnswer.add(t.ticketId);
  const before = breachCalls;
  await sleepUntil(t.createdAt + HOUR);
  await breached(t.ticketId, 'first_response');
  await eventually(() => !loseFirstBreachAnswer.has(t.ticketId) && breachCalls >= before + 2, { what: 'the retried breach' });
  await pause(300);
  assert.equal((await breachEvents(t.ticketId)).length, 1);
  assert.equal((await slaRow(t.ticketId)).firstResponseBreachedAt?.toISOString(), iso(t.createdAt + HOUR));
});

test('a reply published before first_response_at existed meets the first response: read as such, and backfilled by the migration', async () => {
  const t = await ticket('critical');
  const replyAt = t.createdAt + 10 * MINUTE;
  // what a worker of the code before the column left: a published reply, first_response_at null
  await db.query(`INSERT INTO platform_ticket_replies (id, ticket_id, author_id, body, version, created_at) VALUES ($1, $2, $3, 'old', 2, $4)`, [
    newId('rpl'), t.ticketId, tenant.agentUserId, new Date(replyAt),
  ]);
  const read = await readPlatformTicketSla(db, t.ticketId);
  assert.ok(!('gone' in read) && read.firstResponded);
  assert.equal((await db.query(`SELECT first_response_at FROM platform_tickets WHERE id = $1`, [t.ticketId])).rows[0].first_response_at, null);
  await new PlatformFirstResponseBackfill1732240000030().up({ query: (text: string) => db.query(text) } as never);
  assert.equal((await slaRow(t.ticketId)).firstResponseAt?.toISOString(), iso(replyAt));
  await t.handle.terminate('done');
});

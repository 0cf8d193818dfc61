// The platform ticket workflow continues as new when Temporal suggests it (about 4,000
// events: ~700 changes) and the next run carries the ticket on: its status, step number,
// assignee and soft delete (ids, numbers and statuses only), and takes the next change as
// the following step. On the time-skipping server with in-memory activities that answer
// as the real ones do (the step numbers are what matters here).
import assert from 'node:assert/strict';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import {
  deleteTicketUpdate,
  patchTicketUpdate,
  PLATFORM_TICKET_WORKFLOW_TYPE,
  platformTicketStateQuery,
  platformTicketWorkflowId,
  restoreTicketUpdate,
  type PlatformTicketActivities,
  type PlatformTicketFacts,
  type PlatformTicketStep,
} from '../../workflows/platform-ticket/contract';
import { daysAfter, TICKET_RECOVERY_DAYS } from '../../domain/platform/windows.rules';
import { NO_AUTOMATIONS, NO_RISK } from './platform-ticket-quiet-activities';
import { timeSkippingEnv } from '../support/temporal';

const TASK_QUEUE = 'platform-ticket-can-test';
let env: TestWorkflowEnvironment;
let worker: Worker;
let running: Promise<void>;
const steps: PlatformTicketStep[] = [];
let row: PlatformTicketFacts = { version: 1, status: 'open', assigneeId: 'usr_1', purgeAt: null };

const activities: PlatformTicketActivities = {
  async applyPlatformTicketStep(step) {
    if (row.version >= step.version) return row;
    assert.equal(step.version, row.version + 1, 'steps follow each other');
    steps.push(step);
    const c = step.change;
    row = { ...row, version: step.version };
    if (c.kind === 'patch' && c.status) row.status = c.status;
    if (c.kind === 'delete') row.purgeAt = daysAfter(new Date(step.at), TICKET_RECOVERY_DAYS).toISOString();
    if (c.kind === 'restore') row.purgeAt = null;
    return row;
  },
  async purgePlatformTicket() {
    return 'purged';
  },
  ...NO_AUTOMATIONS,
  // deadlines far away: read once by the first run, carried by the next (never re-read)
  async readPlatformTicketSla() {
    slaReads++;
    return { priority: 'normal', dueAt: { first_response: '2099-01-01T00:00:00.000Z', resolution: '2099-01-02T00:00:00.000Z' }, firstResponded: false, breached: { first_response: false, resolution: false } };
  },
  async breachPlatformTicketSla() {
    return { breached: false };
  },
};
let slaReads = 0;
/** risk signals (workflows/platform-ticket/risk.ts): nothing to flag here */
const riskActivities = NO_RISK;

beforeAll(async () => {
  env = await timeSkippingEnv();
  worker = await Worker.create({ connection: env.nativeConnection, taskQueue: TASK_QUEUE, workflowsPath: require.resolve('../../workflows/queues/platform'), activities: { ...activities, ...riskActivities } });
  running = worker.run();
}, 120_000);

afterAll(async () => {
  worker?.shutdown();
  await running;
  await env?.teardown();
});

test('continues as new when suggested, carrying status, step, assignee and the soft delete', async () => {
  const workflowId = platformTicketWorkflowId('tkt_continueasnew0000000001');
  const first = await env.client.workflow.start(PLATFORM_TICKET_WORKFLOW_TYPE, {
    taskQueue: TASK_QUEUE,
    workflowId,
    args: [{ ticketId: 'tkt_continueasnew0000000001', workspaceId: 'ws_1', assigneeId: 'usr_1' }],
  });
  const firstRunId = first.firstExecutionRunId;
  const handle = env.client.workflow.getHandle(workflowId);
  await handle.executeUpdate(patchTicketUpdate, { args: [{ status: 'pending' }] });
  // deleted and restored in turn: the run that continues may be in either state
  while ((await handle.describe()).runId === firstRunId) {
    await handle.executeUpdate(row.purgeAt ? restoreTicketUpdate : deleteTicketUpdate);
    assert.ok(row.version < 3000, 'no continue-as-new after 3,000 changes');
  }
  // the new run knows the ticket as the old one left it, and takes the next step
  const carried = await handle.query(platformTicketStateQuery);
  assert.deepEqual(carried, { status: 'pending', version: row.version, assigneeId: 'usr_1', purgeAt: row.purgeAt, deleted: row.purgeAt !== null });
  assert.equal(slaReads, 1, 'the SLA deadlines are carried, not read again');
  const wasDeleted = carried.deleted;
  await handle.executeUpdate(wasDeleted ? restoreTicketUpdate : deleteTicketUpdate);
  const next = await handle.query(platformTicketStateQuery);
  assert.equal(next.deleted, !wasDeleted);
  assert.equal(next.version, carried.version + 1);
  if (!next.deleted) await handle.executeUpdate(patchTicketUpdate, { args: [{ status: 'resolved' }] });
  else {
    await handle.executeUpdate(restoreTicketUpdate);
    await handle.executeUpdate(patchTicketUpdate, { args: [{ status: 'resolved' }] });
  }
  assert.equal((await handle.query(platformTicketStateQuery)).status, 'resolved');
  assert.equal(steps.length, row.version - 1, 'every step stored once');
}, 240_000);

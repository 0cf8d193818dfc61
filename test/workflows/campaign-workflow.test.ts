// The campaign workflow on the time-skipping server with in-memory activities: a
// scheduled campaign sends at its instant and not a second before, a reschedule moves its
// timer, a cancel before sending never sends, a cancel during sending stops after the
// pages in flight, and a long campaign continues as new with every page sent once. A
// reschedule is refused by the API's own rule for a scheduled time (domain/push).
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import {
  cancelUpdate,
  campaignWorkflowId,
  NOT_SCHEDULED,
  rescheduleUpdate,
  type CampaignActivities,
  type CampaignInput,
} from '../../workflows/campaign/contract';
import { campaignWorkflow } from '../../workflows/campaign/campaign.workflow';
import { checkScheduledAt, MAX_SCHEDULE_AHEAD_MS } from '../../domain/push/campaign.rules';
import { DomainError, fromRefusal } from '../../domain/errors';
import { PAGES_IN_FLIGHT, PAGES_PER_RUN, PUSH_PAGE_SIZE } from '../../workflows/campaign/campaign.logic';
import { timeSkippingEnv, workflowBundle } from '../support/temporal';
import { eventually } from '../support/eventually';

const TASK_QUEUE = 'campaign-test';
const DAY = 86_400_000;

/** What the fake activities saw of one campaign. */
interface Seen {
  total: number;
  /** server time at which sending was scheduled to start (the snapshot activity) */
  beganAt: number[];
  pages: number[];
  sent: number;
  finished: string[];
  rescheduled: string[];
  gone?: boolean;
  /** pages wait for this when set */
  gate?: Promise<void>;
  /** this page fails for good */
  failPage?: number;
}
const seen = new Map<string, Seen>();
const of = (campaignId: string) => seen.get(campaignId)!;

const activities: CampaignActivities = {
  async beginCampaignSend({ campaignId }) {
    const s = of(campaignId);
    s.beganAt.push(Context.current().info.scheduledTimestampMs);
    if (s.gone) return { kind: 'gone' };
    return { kind: 'sending', sendId: campaignId, total: s.total };
  },
  async rescheduleCampaign({ campaignId, scheduledAt }) {
    of(campaignId).rescheduled.push(scheduledAt);
    return true;
  },
  async finishCampaign({ campaignId, status }) {
    const s = of(campaignId);
    s.finished.push(status);
    return { status, sent: s.sent };
  },
  async sendPushPage({ sendId, afterPosition, limit }) {
    const s = of(sendId);
    if (s.gate) await s.gate;
    const page = (afterPosition + 1) / PUSH_PAGE_SIZE;
    if (page === s.failPage) throw ApplicationFailure.nonRetryable('the database is gone', 'Down');
    s.pages.push(page);
    const last = Math.min(afterPosition + limit, s.total - 1);
    s.sent += last - afterPosition;
    return { sent: last - afterPosition, failed: 0, rows: last - afterPosition, lastPosition: last, more: last < s.total - 1 };
  },
};

let env: TestWorkflowEnvironment;
let worker: Worker;
let running: Promise<void>;

beforeAll(async () => {
  env = await timeSkippingEnv();
  worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue: TASK_QUEUE,
    workflowBundle: await workflowBundle(),
    activities,
  });
  running = worker.run();
});

afterAll(async () => {
  worker?.shutdown();
  await running;
  await env?.teardown();
});

async function start(o: { total: number; inMs?: number; gate?: Promise<void>; gone?: boolean; failPage?: number }) {
  const campaignId = randomUUID();
  seen.set(campaignId, { total: o.total, beganAt: [], pages: [], sent: 0, finished: [], rescheduled: [], gate: o.gate, gone: o.gone, failPage: o.failPage });
  const now = await env.currentTimeMs();
  const scheduledAt = o.inMs === undefined ? null : new Date(now + o.inMs).toISOString();
  const input: CampaignInput = { campaignId, appId: randomUUID(), scheduledAt, searchAttributes: false };
  const handle = await env.client.workflow.start(campaignWorkflow, { args: [input], workflowId: campaignWorkflowId(campaignId), taskQueue: TASK_QUEUE });
  return { campaignId, handle, scheduledAt: scheduledAt ? Date.parse(scheduledAt) : null, s: of(campaignId) };
}

describe('a scheduled campaign', () => {
  test('3 days ahead: nothing a second before, sent at that instant', async () => {
    const { handle, scheduledAt, s } = await start({ total: 1_200, inMs: 3 * DAY });
    await env.sleep(3 * DAY - 1_000);
    assert.deepEqual(s.beganAt, []);
    assert.deepEqual(s.pages, []);
    await env.sleep(1_000);
    const result = await handle.result();
    assert.deepEqual(result, { status: 'Completed', sent: 1_200, failed: 0, pages: 3 });
    assert.equal(s.beganAt.length, 1);
    assert.ok(s.beganAt[0] >= scheduledAt!, `began ${scheduledAt! - s.beganAt[0]} ms early`);
    // its timer fired at the instant: what follows is the real time the workers took (a
    // loaded machine), not skipped time (the next day would be 86,400,000 ms on)
    assert.ok(s.beganAt[0] < scheduledAt! + 60_000, `began ${s.beganAt[0] - scheduledAt!} ms after its time`);
    assert.deepEqual(s.pages.sort((a, b) => a - b), [0, 1, 2]);
    assert.deepEqual(s.finished, ['Completed']);
  });

  test('rescheduled earlier, then later: sent at the last time only', async () => {
    const { handle, s } = await start({ total: 10, inMs: 3 * DAY });
    const now = await env.currentTimeMs();
    const earlier = new Date(now + DAY).toISOString();
    assert.deepEqual(await handle.executeUpdate(rescheduleUpdate, { args: [{ scheduledAt: earlier }] }), { status: 'Scheduled', sent: 0 });
    const later = new Date(now + 5 * DAY).toISOString();
    await handle.executeUpdate(rescheduleUpdate, { args: [{ scheduledAt: later }] });
    assert.deepEqual(s.rescheduled, [earlier, later]);
    await env.sleep(5 * DAY - 1_000);
    assert.deepEqual(s.beganAt, [], 'neither the first nor the earlier time sent it');
    await env.sleep(1_000);
    assert.equal((await handle.result()).status, 'Completed');
    assert.ok(s.beganAt[0] >= Date.parse(later));
  });

  test('a reschedule into the past is refused; one after sending started too', async () => {
    const { handle } = await start({ total: 10, inMs: DAY });
    const past = new Date((await env.currentTimeMs()) - 1_000).toISOString();
    await assert.rejects(handle.executeUpdate(rescheduleUpdate, { args: [{ scheduledAt: past }] }), WorkflowUpdateFailedError);
    await env.sleep(DAY);
    await handle.result();
    const err = await handle.executeUpdate(rescheduleUpdate, { args: [{ scheduledAt: new Date(Date.now() + DAY).toISOString() }] }).catch((e) => e);
    assert.ok(err instanceof Error, 'refused');
  });

  test('a reschedule more than 366 days ahead is refused as the API refuses it on schedule; 300 days ahead is taken', async () => {
    const { handle, s } = await start({ total: 10, inMs: DAY });
    const now = await env.currentTimeMs();
    const tooFar = new Date(now + MAX_SCHEDULE_AHEAD_MS + 60_000).toISOString();
    const err = await handle.executeUpdate(rescheduleUpdate, { args: [{ scheduledAt: tooFar }] }).catch((e) => e);
    assert.ok(err instanceof WorkflowUpdateFailedError, String(err));
    const failure = err.cause;
    assert.ok(failure instanceof ApplicationFailure);
    // the rule the API's create and schedule apply, and its refusal: 400 validation_error on scheduledAt
    const api = (() => {
      try {
        checkScheduledAt(new Date(tooFar), new Date(now));
      } catch (e) {
        return e as DomainError;
      }
      throw new Error('the API takes it');
    })();
    assert.equal(failure.type, api.code);
    assert.equal(failure.type, 'scheduled_at_too_far');
    assert.equal(failure.message, api.message);
    assert.deepEqual(fromRefusal(failure.type, failure.message, failure.details), new DomainError('invalid', api.code, api.message, { errors: { scheduledAt: [api.message] } }));
    assert.deepEqual(s.rescheduled, [], 'the refused time was never stored');

    const inRange = new Date(now + 300 * DAY).toISOString();
    assert.deepEqual(await handle.executeUpdate(rescheduleUpdate, { args: [{ scheduledAt: inRange }] }), { status: 'Scheduled', sent: 0 });
    assert.deepEqual(s.rescheduled, [inRange]);
    assert.deepEqual(await handle.executeUpdate(cancelUpdate), { status: 'Cancelled', sent: 0 });
    assert.equal((await handle.result()).status, 'Cancelled');
  });

  test('cancelled before its time: never sends', async () => {
    const { handle, s } = await start({ total: 10, inMs: 3 * DAY });
    await env.sleep(DAY);
    assert.deepEqual(await handle.executeUpdate(cancelUpdate), { status: 'Cancelled', sent: 0 });
    assert.equal((await handle.result()).status, 'Cancelled');
    await env.sleep(3 * DAY);
    assert.deepEqual(s.beganAt, []);
    assert.deepEqual(s.pages, []);
    assert.deepEqual(s.finished, ['Cancelled']);
  });

  test('a campaign gone (its app deleted) when its time comes ends without sending', async () => {
    const { handle, s } = await start({ total: 10, inMs: DAY, gone: true });
    await env.sleep(DAY);
    assert.equal((await handle.result()).status, 'Gone');
    assert.deepEqual(s.pages, []);
    assert.deepEqual(s.finished, []);
  });
});

describe('sending', () => {
  test('cancel during sending stops after the pages in flight', async () => {
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const { handle, s } = await start({ total: 20 * PUSH_PAGE_SIZE, gate });
    // the first pages are in flight, held at the gate
    await eventually(async () => (await handle.query('state' as never) as { phase: string }).phase === 'sending' || undefined);
    const cancelled = handle.executeUpdate(cancelUpdate);
    await new Promise((r) => setTimeout(r, 300));
    open();
    const reply = await cancelled;
    assert.equal(reply.status, 'Cancelled');
    assert.equal(s.pages.length, PAGES_IN_FLIGHT, 'only the pages in flight were sent');
    assert.equal(reply.sent, PAGES_IN_FLIGHT * PUSH_PAGE_SIZE);
    assert.deepEqual(s.finished, ['Cancelled']);
    assert.equal((await handle.result()).status, 'Cancelled');
    const again = await handle.executeUpdate(cancelUpdate).catch((e) => e);
    assert.ok(again instanceof Error, 'a finished campaign refuses a second cancel');
  });

  test(`continues as new after ${PAGES_PER_RUN} pages; every page sent once`, async () => {
    const pages = PAGES_PER_RUN + 3;
    const { handle, s } = await start({ total: pages * PUSH_PAGE_SIZE - 7 });
    const result = await handle.result();
    assert.deepEqual(result, { status: 'Completed', sent: pages * PUSH_PAGE_SIZE - 7, failed: 0, pages });
    assert.deepEqual([...s.pages].sort((a, b) => a - b), Array.from({ length: pages }, (_, i) => i));
    assert.deepEqual(s.beganAt.length, 1, 'one snapshot across runs');
    const first = await env.client.workflow.getHandle(handle.workflowId, handle.firstExecutionRunId).describe();
    assert.equal(first.status.name, 'CONTINUED_AS_NEW');
    const history = await env.client.workflow.getHandle(handle.workflowId, handle.firstExecutionRunId).fetchHistory();
    assert.ok(history.events!.length < PAGES_PER_RUN * 6 + 50, `first run: ${history.events!.length} events`);
  });

  test('a page that cannot be sent makes the campaign Failed after the pages in flight', async () => {
    const { handle, s } = await start({ total: 20 * PUSH_PAGE_SIZE, failPage: 3 });
    const result = await handle.result();
    assert.equal(result.status, 'Failed');
    assert.deepEqual(s.finished, ['Failed']);
    assert.ok(s.pages.length < 20, `${s.pages.length} pages sent: no page is started after the failure is known`);
  });

  test('a reschedule of a campaign sending now is refused as not scheduled', async () => {
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const { handle } = await start({ total: 10, gate });
    await eventually(async () => (await handle.query('state' as never) as { phase: string }).phase === 'sending' || undefined);
    const err = await handle.executeUpdate(rescheduleUpdate, { args: [{ scheduledAt: new Date(Date.now() + DAY).toISOString() }] }).catch((e) => e);
    open();
    assert.ok(err instanceof WorkflowUpdateFailedError);
    assert.equal((err.cause as { type?: string }).type, NOT_SCHEDULED);
    await handle.result();
  });
});

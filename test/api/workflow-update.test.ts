// The one Update path (api/kit/workflow-update.ts) against the test run's Temporal
// server: the real campaign workflow on a private queue (no dispatcher claims its outbox
// entries) with in-memory activities behind withDomainFailures, as the workers run them.
// A refusal made by an Update validator, or by an activity its handler called, comes back
// as the DomainError it was; an ended run and an id that never ran are told apart from
// refusals by the SDK's error types (the server's NOT_FOUND "workflow execution already
// completed" is a WorkflowNotFoundError in @temporalio/client 1.24), and answered by
// onEnded; a Temporal server that does not answer is a 503 within the deadline.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Client, Connection, WithStartWorkflowOperation, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { WorkflowIdReusePolicy, WorkflowNotFoundError } from '@temporalio/common';
import { NativeConnection, Worker } from '@temporalio/worker';
import { withDomainFailures } from '../../activities/failures';
import { fromDomainError } from '../../api/kit/error-middleware';
import { AppError } from '../../api/kit/errors';
import { isEndedWorkflow } from '../../api/kit/workflow-outcome';
import { updateWorkflow, type EndedWorkflow, type WorkflowUpdate } from '../../api/kit/workflow-update';
import { enqueueWorkflowStart, forgetWorkflowStarts } from '../../db/repositories/workflow-starts';
import { DomainError } from '../../domain/errors';
import {
  CAMPAIGN_WORKFLOW_TYPE,
  campaignWorkflowId,
  campaignWorkflowStart,
  cancelUpdate,
  PAST_TIME,
  rescheduleUpdate,
  type CampaignActivities,
  type CampaignChangeReply,
  type CampaignInput,
} from '../../workflows/campaign/contract';
import { startApi, type TestApi } from '../support/api';
import { workflowBundle } from '../support/temporal';

const taskQueue = `workflow-update-${randomUUID().slice(0, 8)}`;
const DAY = 86_400_000;
/** a time the fake rescheduleCampaign refuses, as a domain command would (within the validator's 366 days) */
const REFUSED_AT = new Date(Math.floor((Date.now() + 100 * DAY) / 60_000) * 60_000 + 7).toISOString();

const activities = withDomainFailures<CampaignActivities>({
  beginCampaignSend: async () => assert.fail('no campaign here reaches its time'),
  rescheduleCampaign: async ({ campaignId, scheduledAt }) => {
    if (scheduledAt === REFUSED_AT) throw new DomainError('conflict', 'reschedule_refused', `Campaign '${campaignId}' cannot move to ${scheduledAt}`, { campaignId });
    return true;
  },
  finishCampaign: async ({ status }) => ({ status, sent: 0 }),
  sendPushPage: async () => assert.fail('nothing is sent'),
});

let api: TestApi;
let connection: NativeConnection;
let worker: Worker;
let running: Promise<void>;
beforeAll(async () => {
  api = await startApi();
  connection = await NativeConnection.connect({ address: api.deps.config.temporalAddress });
  worker = await Worker.create({ connection, namespace: api.deps.config.temporalNamespace, taskQueue, workflowBundle: await workflowBundle(), activities });
  running = worker.run();
});
afterAll(async () => {
  worker?.shutdown();
  await running;
  await connection?.close();
  await api?.stop();
});

const inDays = (days: number) => new Date(Date.now() + days * DAY).toISOString();

/** A scheduled campaign's workflow, running on the private queue. */
async function scheduledCampaign(): Promise<string> {
  const campaignId = randomUUID();
  const input: CampaignInput = { campaignId, appId: randomUUID(), scheduledAt: inDays(1), searchAttributes: false };
  await api.deps.temporal.workflow.start(CAMPAIGN_WORKFLOW_TYPE, { taskQueue, workflowId: campaignWorkflowId(campaignId), args: [input] });
  return campaignId;
}

/** updateWorkflow whose onEnded records each call and answers `fromRow`. */
function withRow<Args extends unknown[]>(campaignId: string, u: Pick<WorkflowUpdate<CampaignChangeReply, Args>, 'update' | 'args' | 'answeredFromRow'>) {
  const ended: Array<Pick<EndedWorkflow<CampaignChangeReply>, 'refusal'>> = [];
  const fromRow: CampaignChangeReply = { status: 'Cancelled', sent: -1 };
  const reply = updateWorkflow(api.deps, {
    workflowId: campaignWorkflowId(campaignId),
    ...u,
    onEnded: async ({ refusal }) => {
      ended.push({ refusal });
      return fromRow;
    },
  });
  return { reply, ended, fromRow };
}

describe('a refusal crosses Temporal as the DomainError it was', () => {
  test("an Update validator's (workflows/refusal.ts): kind, code, message and field details; the API answers 400 with them", async () => {
    const campaignId = await scheduledCampaign();
    const { reply, ended } = withRow(campaignId, { update: rescheduleUpdate, args: [{ scheduledAt: inDays(-1) }] });
    const err = await reply.catch((e: unknown) => e);
    assert.ok(err instanceof DomainError, String(err));
    const message = 'scheduledAt must be in the future';
    assert.deepEqual({ kind: err.kind, code: err.code, message: err.message, details: err.details }, { kind: 'invalid', code: PAST_TIME, message, details: { errors: { scheduledAt: [message] } } });
    const answer = fromDomainError(err);
    assert.deepEqual({ status: answer.status, code: answer.code, message: answer.message, details: answer.details }, { status: 400, code: PAST_TIME, message, details: { scheduledAt: [message] } });
    assert.deepEqual(ended, [], 'a refusal is not an ended workflow');
  });

  test("an activity's, through the Update handler that called it (ActivityFailure): kind, code, message and details", async () => {
    const campaignId = await scheduledCampaign();
    const scheduledAt = REFUSED_AT;
    const err = await withRow(campaignId, { update: rescheduleUpdate, args: [{ scheduledAt }] }).reply.catch((e: unknown) => e);
    assert.ok(err instanceof DomainError, String(err));
    assert.deepEqual(
      { kind: err.kind, code: err.code, message: err.message, details: err.details },
      { kind: 'conflict', code: 'reschedule_refused', message: `Campaign '${campaignId}' cannot move to ${scheduledAt}`, details: { campaignId } },
    );
    assert.equal(fromDomainError(err).status, 409);
  });

  test('a refusal whose code the caller lists in answeredFromRow goes to onEnded, with the refusal', async () => {
    const campaignId = await scheduledCampaign();
    const { reply, ended, fromRow } = withRow(campaignId, { update: rescheduleUpdate, args: [{ scheduledAt: inDays(-1) }], answeredFromRow: [PAST_TIME] });
    assert.deepEqual(await reply, fromRow);
    assert.equal(ended.length, 1);
    assert.equal(ended[0].refusal?.code, PAST_TIME);
  });
});

describe('an ended or missing workflow, by the SDK error types', () => {
  test('an Update to a run that completed: WorkflowNotFoundError (NOT_FOUND "already completed"); onEnded answers', async () => {
    const campaignId = await scheduledCampaign();
    const cancelled = await withRow(campaignId, { update: cancelUpdate, args: [] }).reply;
    assert.deepEqual(cancelled, { status: 'Cancelled', sent: 0 });
    const handle = api.deps.temporal.workflow.getHandle(campaignWorkflowId(campaignId));
    await handle.result();

    const raw = await handle.executeUpdate(cancelUpdate).catch((e: unknown) => e);
    assert.ok(raw instanceof WorkflowNotFoundError, `${(raw as Error)?.constructor?.name}: ${String(raw)}`);
    assert.match(raw.message, /already completed/);
    assert.equal(isEndedWorkflow(raw), true);

    const { reply, ended, fromRow } = withRow(campaignId, { update: cancelUpdate, args: [] });
    assert.deepEqual(await reply, fromRow);
    assert.deepEqual(ended, [{ refusal: null }]);
  });

  test('an id that never ran and has no pending start: WorkflowNotFoundError; onEnded answers', async () => {
    const campaignId = randomUUID();
    const raw = await api.deps.temporal.workflow.getHandle(campaignWorkflowId(campaignId)).executeUpdate(cancelUpdate).catch((e: unknown) => e);
    assert.ok(raw instanceof WorkflowNotFoundError, String(raw));
    const { reply, ended, fromRow } = withRow(campaignId, { update: cancelUpdate, args: [] });
    assert.deepEqual(await reply, fromRow);
    assert.deepEqual(ended, [{ refusal: null }]);
  });

  test('a pending outbox entry: the Update starts its workflow; once that run ended, its start is refused (WorkflowExecutionAlreadyStartedError) and onEnded answers', async () => {
    const campaignId = randomUUID();
    const workflowId = campaignWorkflowId(campaignId);
    const entry = { ...campaignWorkflowStart(false)({ id: campaignId, appId: randomUUID(), status: 'Scheduled', scheduledAt: new Date(inDays(1)) }), taskQueue };
    await enqueueWorkflowStart(api.deps.db, entry);
    try {
      const first = withRow(campaignId, { update: cancelUpdate, args: [] });
      assert.deepEqual(await first.reply, { status: 'Cancelled', sent: 0 });
      assert.deepEqual(first.ended, []);
      const handle = api.deps.temporal.workflow.getHandle(workflowId);
      assert.equal((await handle.describe()).taskQueue, taskQueue);
      await handle.result();

      // what the path sends while the entry is still pending, once its run has ended
      const startWorkflowOperation = new WithStartWorkflowOperation(entry.workflowType, {
        workflowId,
        taskQueue,
        args: entry.args,
        workflowIdConflictPolicy: 'USE_EXISTING',
        workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
      });
      const raw = await api.deps.temporal.workflow.executeUpdateWithStart(cancelUpdate, { startWorkflowOperation }).catch((e: unknown) => e);
      assert.ok(raw instanceof WorkflowExecutionAlreadyStartedError, `${(raw as Error)?.constructor?.name}: ${String(raw)}`);
      assert.equal(isEndedWorkflow(raw), true);

      const again = withRow(campaignId, { update: cancelUpdate, args: [] });
      assert.deepEqual(await again.reply, again.fromRow);
      assert.deepEqual(again.ended, [{ refusal: null }]);
    } finally {
      await forgetWorkflowStarts(api.deps.db, [workflowId]);
    }
  });
});

test('a Temporal server that does not answer: 503 with Retry-After, a second after the deadline at the most', async () => {
  const dead = new Client({ connection: Connection.lazy({ address: '127.0.0.1:1', connectTimeout: '1s' }) });
  const logged: unknown[] = [];
  const logger = Object.assign(Object.create(api.deps.logger), { error: (...args: unknown[]) => void logged.push(args) });
  const began = Date.now();
  const err = await updateWorkflow({ ...api.deps, temporal: dead, logger }, {
    workflowId: campaignWorkflowId(randomUUID()),
    update: cancelUpdate,
    args: [],
    deadlineMs: 500,
    onEnded: async () => assert.fail('an unreachable server is not an ended workflow'),
  }).catch((e: unknown) => e);
  assert.ok(Date.now() - began < 1_500 + 1_000, `answered after ${Date.now() - began} ms`);
  assert.ok(err instanceof AppError, String(err));
  assert.equal(err.status, 503);
  assert.equal(err.code, 'service_unavailable');
  assert.ok(Number(err.headers['Retry-After']) > 0);
  assert.equal(logged.length, 1, 'the failure is logged');
});

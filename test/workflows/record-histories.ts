// Records the workflow histories that replay.test.ts replays, one or more per workflow
// type (a ticket's whole lifecycle; the deletion of a closed ticket; each retention
// purge over several batches; a webhook batch of two deliveries, one of them retrying; a
// manual delivery). Run after a deliberate workflow change that old histories cannot
// replay (never to silence a determinism failure: read docs/workflows.md first):
//   set -a; . .data/env; set +a; DATABASE_URL=$TEST_DATABASE_URL npx tsx test/workflows/record-histories.ts [ticket] [ended-ticket] [purges] [webhook] [webhook-round] [webhook-delivery]
// (no argument: all). Keep the histories of code still running somewhere: rename
// them (e.g. ticket-lifecycle-2026-11-full-records.json) instead of overwriting.
import { writeFileSync } from 'node:fs';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { join } from 'node:path';
import { connectDb } from '../../db/db';
import { loadConfig } from '../../lib/config';
import { newId } from '../../lib/ids';
import { WithStartWorkflowOperation } from '@temporalio/client';
import { createMaintenanceActivities } from '../../activities/maintenance';
import {
  purgeEventsWorkflow,
  purgeIdempotencyKeysWorkflow,
  purgeRevokedKeysWorkflow,
  purgeWebhookLogWorkflow,
} from '../../workflows/maintenance';
import {
  assignUpdate,
  createdUpdate,
  deleteUpdate,
  messageUpdate,
  patchUpdate,
  resolveUpdate,
  ticketWorkflowId,
  type CreateTicketInput,
  type EndedTicketInput,
} from '../../workflows/ticket/contract';
import { storeNewTicket } from '../../domain/tickets/store-new-ticket';
import { endedTicketWorkflow } from '../../workflows/ticket/ended-ticket.workflow';
import { revokeKeyDaysAgo } from '../support/auth-factories';
import { ticketWorkflow } from '../../workflows/ticket/ticket.workflow';
import { createAgent, createApiKey, createOrganization, createPlayer, createTenant } from '../support/factories';
import { ticketWorker, timeSkippingEnv, workflowBundle } from '../support/temporal';
import { randomBytes } from 'node:crypto';
import { Worker } from '@temporalio/worker';
import { createWebhookActivities } from '../../activities/webhooks/deliver';
import { createPauseActivities } from '../../activities/webhooks/pause';
import { NO_EMAIL } from '../../lib/email/no-email';
import { PLATFORM_RETRY_SCHEDULE, TICKETING_RETRY_SCHEDULE } from '../../domain/webhooks/retry-schedules';
import { createSafeHttpAgent, createSafeHttpsAgent } from '../../lib/webhooks/safe-agent';
import { webhookBatchWorkflowId, webhookDeliveryWorkflowId, type RetrySchedule } from '../../workflows/webhook-delivery/contract';
import { webhookBatchWorkflow } from '../../workflows/webhook-delivery/webhook-batch.workflow';
import { webhookDeliveryWorkflow } from '../../workflows/webhook-delivery/webhook-delivery.workflow';
import { createDelivery } from '../support/webhook-factories';
import { startReceiver } from '../support/webhook-receiver';

type Env = Awaited<ReturnType<typeof timeSkippingEnv>>;
type DbHandle = Awaited<ReturnType<typeof connectDb>>;

async function main() {
  const which = process.argv.slice(2);
  const db = await connectDb(loadConfig().databaseUrl, 2);
  const env = await timeSkippingEnv();
  if (!which.length || which.includes('ticket')) await recordTicket(env, db);
  if (!which.length || which.includes('ended-ticket')) await recordEndedTicket(env, db);
  if (!which.length || which.includes('purges')) await recordPurges(env, db);
  if (!which.length || which.includes('webhook')) await recordWebhookEvent(env, db, (await createTenant(db)).workspace.id);
  if (!which.length || which.includes('webhook-round')) await recordWebhookEvent(env, db, (await createTenant(db)).workspace.id, { roundInOneActivity: true });
  if (!which.length || which.includes('webhook-delivery')) await recordWebhookDelivery(env, db, (await createTenant(db)).workspace.id);
  await env.teardown();
  await db.close();
}

async function recordTicket(env: Env, db: DbHandle) {
  const taskQueue = 'record-histories';
  const worker = await ticketWorker({ connection: env.nativeConnection, taskQueue, db });
  const running = worker.run();
  const { org, workspace } = await createTenant(db, { settings: { autoCloseHours: 48 } });
  const player = await createPlayer(db, workspace.id);
  const agent = await createAgent(db, workspace.id);
  const ticketId = newId('tkt');
  const actor = { keyId: 'key_recorder' };
  // the create outbox (Nov 2026): the API stores the row, the workflow starts with `stored`
  // (the history of the earlier path, whose workflow inserted the row, is
  // ticket-lifecycle-2026-11-workflow-inserts.json)
  const input: CreateTicketInput = {
    ticketId,
    workspaceId: workspace.id,
    organizationId: org.id,
    playerRef: player.id,
    playerId: player.playerId,
    title: 'Stuck at the loading screen',
    body: 'Every time I load the map the game freezes',
    category: null,
    priority: 'high',
    source: 'steam',
    tags: ['freeze'],
    metadata: {},
    createdAt: new Date(await env.currentTimeMs()).toISOString(),
    searchAttributes: false,
    stored: true,
  };
  await db.transaction((m) => storeNewTicket(m, input));
  const handle = await env.client.workflow.start(ticketWorkflow, { taskQueue, workflowId: ticketWorkflowId(ticketId), args: [input] });
  await handle.executeUpdate(assignUpdate, { args: [{ agentId: agent.id, note: 'first line' }, actor] });
  await handle.executeUpdate(messageUpdate, { args: [{ messageId: newId('msg'), authorType: 'agent', authorId: agent.id, body: 'Try verifying files' }, actor] });
  await env.sleep('30h'); // past the resolution SLA of a high ticket
  await handle.executeUpdate(patchUpdate, { args: [{ priority: 'urgent', tags: ['freeze', 'vip'] }, actor] });
  await handle.executeUpdate(resolveUpdate, { args: [{ resolutionNote: 'Driver update', sendNotification: false }, actor] });
  await handle.executeUpdate(messageUpdate, { args: [{ messageId: newId('msg'), authorType: 'player', authorId: player.playerId, body: 'Back again' }, actor] });
  await handle.executeUpdate(resolveUpdate, { args: [{ sendNotification: false }, actor] });
  await env.sleep('48h');
  await handle.result();
  const history = await handle.fetchHistory();
  writeFileSync(join(__dirname, 'histories', 'ticket-lifecycle.json'), historyToJSON(history));
  worker.shutdown();
  await running;
  console.log(`recorded ${history.events?.length} ticket events`);
}

/** A closed ticket, its lifecycle run ended, deleted through update-with-start of an ended-ticket run. */
async function recordEndedTicket(env: Env, db: DbHandle) {
  const taskQueue = 'record-ended-ticket';
  const worker = await ticketWorker({ connection: env.nativeConnection, taskQueue, db });
  const history = await worker.runUntil(async () => {
    const { org, workspace } = await createTenant(db);
    const player = await createPlayer(db, workspace.id);
    const ticketId = newId('tkt');
    const actor = { keyId: 'key_recorder' };
    const lifecycle = await env.client.workflow.start(ticketWorkflow, {
      taskQueue,
      workflowId: ticketWorkflowId(ticketId),
      args: [
        {
          ticketId,
          workspaceId: workspace.id,
          organizationId: org.id,
          playerRef: player.id,
          playerId: player.playerId,
          title: 'Spam',
          body: 'Buy gold cheap',
          category: null,
          priority: 'low',
          source: 'api',
          tags: [],
          metadata: {},
          createdAt: new Date(await env.currentTimeMs()).toISOString(),
          searchAttributes: false,
        },
      ],
    });
    await lifecycle.executeUpdate(createdUpdate);
    const closed = await lifecycle.executeUpdate(patchUpdate, { args: [{ status: 'closed' }, actor] });
    await lifecycle.result();
    const input: EndedTicketInput = { ticketId, status: 'closed', version: closed.version };
    await env.client.workflow.executeUpdateWithStart(deleteUpdate, {
      args: [actor],
      startWorkflowOperation: new WithStartWorkflowOperation(endedTicketWorkflow, {
        taskQueue,
        workflowId: ticketWorkflowId(ticketId),
        args: [input],
        workflowIdConflictPolicy: 'USE_EXISTING',
      }),
    });
    const ended = env.client.workflow.getHandle(ticketWorkflowId(ticketId));
    await ended.result();
    return ended.fetchHistory();
  });
  writeFileSync(join(__dirname, 'histories', 'ended-ticket-delete.json'), historyToJSON(history));
  console.log(`recorded ${history.events?.length} ended-ticket events`);
}

/** Each retention purge over a small backlog in batches of one row: several activities, then a short batch. */
async function recordPurges(env: Env, db: DbHandle) {
  const taskQueue = 'record-purges';
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: await workflowBundle(),
    activities: createMaintenanceActivities({ db }),
  });
  const org = await createOrganization(db);
  for (let i = 0; i < 2; i++) await revokeKeyDaysAgo(db, (await createApiKey(db, org)).id, 400);
  const workspaceId = (await createTenant(db)).workspace.id;
  for (let i = 0; i < 2; i++) {
    const d = await createDelivery(db, randomBytes(32), workspaceId, 'https://hooks.example.com/x');
    await db.query(`UPDATE webhook_deliveries SET created_at = now() - interval '8 days', status = 'failed' WHERE id = $1`, [d.deliveryId]);
    await db.query(
      `INSERT INTO events (id, workspace_id, type, subject_id, data, occurred_at, dedupe_key, claimed_at, dispatched_at, batch_id)
       VALUES ($1, $2, 'player.created', 'kpl_x', '{}', now() - interval '8 days', $1, now() - interval '8 days', now() - interval '8 days', $1)`,
      [newId('evt'), workspaceId],
    );
    await db.query(
      `INSERT INTO idempotency_keys (api_key_id, key, request_hash, created_at) VALUES ($1, 'k', 'h', now() - interval '2 days')`,
      [newId('key')],
    );
  }
  const purges = [
    ['purge-revoked-keys', purgeRevokedKeysWorkflow],
    ['purge-webhook-log', purgeWebhookLogWorkflow],
    ['purge-events', purgeEventsWorkflow],
    ['purge-idempotency-keys', purgeIdempotencyKeysWorkflow],
  ] as const;
  await worker.runUntil(async () => {
    for (const [name, workflow] of purges) {
      const handle = await env.client.workflow.start(workflow, { taskQueue, workflowId: `maintenance/${name}/${newId('req')}`, args: [{ batchSize: 1 }] });
      const result = await handle.result();
      const history = await handle.fetchHistory();
      writeFileSync(join(__dirname, 'histories', `${name}.json`), historyToJSON(history));
      console.log(`recorded ${history.events?.length} ${name} events (${result.deleted} rows in ${result.batches} batches)`);
    }
  });
}

/**
 * A batch of two deliveries on the ticketing schedule: one answered at once, the other
 * failing twice first. Its first run (both first attempts, then continue-as-new with the
 * failing id) is `webhook-batch.json`. Then a platform batch whose one delivery fails every
 * attempt: its last run (the timer, attempt 5, the pause step) is `webhook-batch-exhausted.json`.
 * (`webhook-batch-before-rounds.json` is a batch recorded before rounds: kept, never re-recorded.)
 * With `roundInOneActivity` (as the dispatcher starts batches since 2026-11-27: each round in
 * one local activity), the same two batches as `webhook-batch-round-activity.json` and
 * `webhook-batch-round-activity-exhausted.json`.
 */
async function recordWebhookEvent(env: Env, db: DbHandle, workspaceId: string, opts: { roundInOneActivity?: true } = {}) {
  const key = randomBytes(32);
  let slowId = '';
  const failing = new Set<string>();
  const receiver = await startReceiver({ answer: (id, n) => ((id === slowId && n < 3) || failing.has(id) ? 500 : 200) });
  const taskQueue = 'record-webhook-histories';
  const agents = { http: createSafeHttpAgent({ allowLoopback: true }), https: createSafeHttpsAgent({ allowLoopback: true }) };
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: await workflowBundle(),
    activities: {
      ...createWebhookActivities({ db, secretKey: key, agents }),
      ...createPauseActivities({ db, mailer: NO_EMAIL }),
    },
  });
  const fast = await createDelivery(db, key, workspaceId, receiver.url);
  const slow = await createDelivery(db, key, workspaceId, receiver.url);
  slowId = slow.deliveryId;
  const doomed = await createDelivery(db, key, workspaceId, receiver.url);
  failing.add(doomed.deliveryId);
  const runs = async (deliveryIds: string[], schedule: RetrySchedule) => {
    const batchId = newId('whb');
    const workflowId = webhookBatchWorkflowId(batchId);
    const handle = await env.client.workflow.start(webhookBatchWorkflow, { taskQueue, workflowId, args: [{ batchId, deliveryIds, schedule, ...opts }] });
    await handle.result();
    const histories = [];
    for (let runId: string | undefined = handle.firstExecutionRunId; runId; ) {
      const history: Awaited<ReturnType<typeof handle.fetchHistory>> = await env.client.workflow.getHandle(workflowId, runId).fetchHistory();
      histories.push(history);
      runId = history.events?.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined;
    }
    return histories;
  };
  const [batch, exhausted] = await worker.runUntil(async () => [
    await runs([fast.deliveryId, slow.deliveryId], TICKETING_RETRY_SCHEDULE),
    await runs([doomed.deliveryId], PLATFORM_RETRY_SCHEDULE),
  ]);
  const name = opts.roundInOneActivity ? 'webhook-batch-round-activity' : 'webhook-batch';
  writeFileSync(join(__dirname, 'histories', `${name}.json`), historyToJSON(batch[0]));
  writeFileSync(join(__dirname, 'histories', `${name}-exhausted.json`), historyToJSON(exhausted.at(-1)!));
  await receiver.stop();
  console.log(`recorded webhook batch run 1 of ${batch.length}: ${batch[0].events?.length} events; exhausted run ${exhausted.length}: ${exhausted.at(-1)!.events?.length} events`);
}

/** A manual delivery (a redelivery from the log), failing once before it succeeds. */
async function recordWebhookDelivery(env: Env, db: DbHandle, workspaceId: string) {
  const key = randomBytes(32);
  const receiver = await startReceiver({ answer: (_id, n) => (n < 2 ? 500 : 200) });
  const taskQueue = 'record-webhook-delivery';
  const agents = { http: createSafeHttpAgent({ allowLoopback: true }), https: createSafeHttpsAgent({ allowLoopback: true }) };
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: await workflowBundle(),
    activities: createWebhookActivities({ db, secretKey: key, agents }),
  });
  const delivery = await createDelivery(db, key, workspaceId, receiver.url);
  const history = await worker.runUntil(async () => {
    const handle = await env.client.workflow.start(webhookDeliveryWorkflow, {
      taskQueue,
      workflowId: webhookDeliveryWorkflowId(delivery.deliveryId),
      args: [{ deliveryId: delivery.deliveryId }],
    });
    await handle.result();
    return handle.fetchHistory();
  });
  writeFileSync(join(__dirname, 'histories', 'webhook-delivery.json'), historyToJSON(history));
  await receiver.stop();
  console.log(`recorded ${history.events?.length} webhook delivery events`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

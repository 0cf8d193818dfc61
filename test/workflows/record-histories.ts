// Records the workflow histories that ticket-replay.test.ts replays (a ticket's whole
// lifecycle; webhook batches: see recordWebhookEvent). Run after a
// deliberate, versioned workflow change (never to silence a determinism failure):
//   set -a; . .data/env; set +a; DATABASE_URL=$TEST_DATABASE_URL npx tsx test/workflows/record-histories.ts [ticket] [webhook]
// (no argument: both)
import { writeFileSync } from 'node:fs';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { join } from 'node:path';
import { connectDb } from '../../db/db';
import { loadConfig } from '../../lib/config';
import { newId } from '../../lib/ids';
import { assignUpdate, createdUpdate, messageUpdate, patchUpdate, resolveUpdate, ticketWorkflowId } from '../../workflows/ticket/contract';
import { ticketWorkflow } from '../../workflows/ticket/ticket.workflow';
import { createAgent, createPlayer, createTenant } from '../support/factories';
import { ticketWorker, timeSkippingEnv, workflowBundle } from '../support/temporal';
import { randomBytes } from 'node:crypto';
import { Worker } from '@temporalio/worker';
import { createWebhookActivities } from '../../activities/webhooks/deliver';
import { createPauseActivities } from '../../activities/webhooks/pause';
import { PLATFORM_RETRY_SCHEDULE, TICKETING_RETRY_SCHEDULE } from '../../lib/webhooks/retry-schedules';
import { createSafeHttpAgent, createSafeHttpsAgent } from '../../lib/webhooks/safe-agent';
import { webhookBatchWorkflowId, type RetrySchedule } from '../../workflows/webhook-delivery/contract';
import { webhookBatchWorkflow } from '../../workflows/webhook-delivery/delivery.workflow';
import { createDelivery, startReceiver } from '../support/webhooks';

type Env = Awaited<ReturnType<typeof timeSkippingEnv>>;
type DbHandle = Awaited<ReturnType<typeof connectDb>>;

async function main() {
  const which = process.argv.slice(2);
  const db = await connectDb(loadConfig().databaseUrl, 2);
  const env = await timeSkippingEnv();
  if (!which.length || which.includes('ticket')) await recordTicket(env, db);
  if (!which.length || which.includes('webhook')) await recordWebhookEvent(env, db, (await createTenant(db)).workspace.id);
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
  const handle = await env.client.workflow.start(ticketWorkflow, {
    taskQueue,
    workflowId: ticketWorkflowId(ticketId),
    args: [
      {
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
      },
    ],
  });
  await handle.executeUpdate(createdUpdate);
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

/**
 * A batch of two deliveries on the ticketing schedule: one answered at once, the other
 * failing twice first. Its first run (both first attempts, then continue-as-new with the
 * failing id) is `webhook-batch.json`. Then a platform batch whose one delivery fails every
 * attempt: its last run (the timer, attempt 5, the pause step) is `webhook-batch-exhausted.json`.
 * (`webhook-batch-before-rounds.json` is a batch recorded before rounds: kept, never re-recorded.)
 */
async function recordWebhookEvent(env: Env, db: DbHandle, workspaceId: string) {
  const key = randomBytes(32);
  let slowId = '';
  const failing = new Set<string>();
  const receiver = await startReceiver((id, n) => ((id === slowId && n < 3) || failing.has(id) ? 500 : 200));
  const taskQueue = 'record-webhook-histories';
  const agents = { http: createSafeHttpAgent({ allowLoopback: true }), https: createSafeHttpsAgent({ allowLoopback: true }) };
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: await workflowBundle(),
    activities: {
      ...createWebhookActivities({ db, secretKey: key, agents }),
      ...createPauseActivities({ db, mailer: { transport: null, from: 'recorder@example.com' } }),
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
    const handle = await env.client.workflow.start(webhookBatchWorkflow, { taskQueue, workflowId, args: [{ batchId, deliveryIds, schedule }] });
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
  writeFileSync(join(__dirname, 'histories', 'webhook-batch.json'), historyToJSON(batch[0]));
  writeFileSync(join(__dirname, 'histories', 'webhook-batch-exhausted.json'), historyToJSON(exhausted.at(-1)!));
  await receiver.stop();
  console.log(`recorded webhook batch run 1 of ${batch.length}: ${batch[0].events?.length} events; exhausted run ${exhausted.length}: ${exhausted.at(-1)!.events?.length} events`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

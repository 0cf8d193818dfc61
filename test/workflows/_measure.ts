import { randomBytes } from 'node:crypto';
import { Worker } from '@temporalio/worker';
import { createWebhookActivities } from '../../activities/webhooks/deliver';
import { createSafeHttpAgent, createSafeHttpsAgent } from '../../lib/webhooks/safe-agent';
import { connectDb } from '../../db/db';
import { loadConfig } from '../../lib/config';
import { webhookBatchWorkflow } from '../../workflows/webhook-delivery/delivery.workflow';
import { createTenant } from '../support/factories';
import { timeSkippingEnv, workflowBundle } from '../support/temporal';
import { createDelivery, startReceiver } from '../support/webhooks';

async function main() {
  const N = Number(process.argv[2] ?? 20);
  const db = await connectDb(loadConfig().databaseUrl, 5);
  const ws = (await createTenant(db)).workspace.id;
  const env = await timeSkippingEnv();
  const key = randomBytes(32);
  const receiver = await startReceiver(() => 500);
  const agents = { http: createSafeHttpAgent({ allowLoopback: true }), https: createSafeHttpsAgent({ allowLoopback: true }) };
  const worker = await Worker.create({ connection: env.nativeConnection, taskQueue: 'm', workflowBundle: await workflowBundle(), activities: createWebhookActivities({ db, secretKey: key, agents }) });
  const ids: string[] = [];
  for (let i = 0; i < N; i++) ids.push((await createDelivery(db, key, ws, receiver.url)).deliveryId);
  const t = Date.now();
  const h = await worker.runUntil(async () => {
    const handle = await env.client.workflow.start(webhookBatchWorkflow, { taskQueue: 'm', workflowId: 'm-' + Date.now(), args: [{ batchId: 'x', deliveryIds: ids }] });
    await handle.result();
    return handle.fetchHistory();
  });
  const counts: Record<string, number> = {};
  for (const e of h.events ?? []) counts[String(e.eventType)] = (counts[String(e.eventType)] ?? 0) + 1;
  console.log(N, 'deliveries', h.events?.length, 'events', (h.events!.length / N).toFixed(2), 'per delivery', Date.now() - t, 'ms', counts);
  await receiver.stop(); await env.teardown(); await db.close();
}
main().catch((e) => { console.error(e); process.exit(1); });

// Records the ticket workflow histories that ticket-replay.test.ts replays. Run after a
// deliberate, versioned workflow change (never to silence a determinism failure):
//   set -a; . .data/env; set +a; DATABASE_URL=$TEST_DATABASE_URL npx tsx test/workflows/record-histories.ts
import { writeFileSync } from 'node:fs';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { join } from 'node:path';
import { connectDb } from '../../db/db';
import { loadConfig } from '../../lib/config';
import { newId } from '../../lib/ids';
import { assignUpdate, createdUpdate, messageUpdate, patchUpdate, resolveUpdate, ticketWorkflowId } from '../../workflows/ticket/contract';
import { ticketWorkflow } from '../../workflows/ticket/ticket.workflow';
import { createAgent, createPlayer, createTenant } from '../support/factories';
import { ticketWorker, timeSkippingEnv } from '../support/temporal';

async function main() {
  const db = await connectDb(loadConfig().databaseUrl, 2);
  const env = await timeSkippingEnv();
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
  await env.teardown();
  await db.close();
  console.log(`recorded ${history.events?.length} events`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

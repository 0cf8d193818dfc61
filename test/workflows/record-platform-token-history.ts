// Records the platform token expiry history that replay.test.ts replays
// (histories/platform-token-expiry.json): a 30-day token's timer firing and marking it
// expired, on the time-skipping server with an in-memory activity. Run after a deliberate
// change of workflows/platform-token that the recorded history cannot replay (read
// docs/workflows.md first):
//   npx tsx test/workflows/record-platform-token-history.ts
import { platformTokenExpiryWorkflowId, type PlatformTokenActivities } from '../../workflows/platform-token/contract';
import { platformTokenExpiryWorkflow } from '../../workflows/platform-token/token-expiry.workflow';
import { recordPlatformHistories } from './platform-recorder';
import { writeHistory } from './push-recorder';

recordPlatformHistories(async ({ env, taskQueue, withWorker }) => {
  const activities: PlatformTokenActivities = { markPlatformTokenExpired: async () => true };
  await withWorker(activities, async () => {
    const tokenId = 'tok_01recordedrecordedrecorded';
    const expiresAt = new Date(Date.now() + 30 * 24 * 3600 * 1000).toISOString();
    const handle = await env.client.workflow.start(platformTokenExpiryWorkflow, { taskQueue, workflowId: platformTokenExpiryWorkflowId(tokenId), args: [{ tokenId, expiresAt }] });
    console.log('result', await handle.result());
    writeHistory('platform-token-expiry', await handle.fetchHistory());
  });
});

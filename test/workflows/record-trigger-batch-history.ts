// Records the trigger batch history that replay.test.ts replays (histories/
// trigger-batch.json): a batch of two firings (one device, two triggers) with a 5-minute
// delay (its timer), pushed through the real page activity and transports to a push sink
// of its own, on the time-skipping server. Run after a deliberate change of
// workflows/trigger-batch that the recorded history cannot replay (read
// docs/workflows.md first; keep the old file under another name while runs of the old
// code may exist):
//   set -a; . .data/env; set +a; DATABASE_URL=$TEST_DATABASE_URL npx tsx test/workflows/record-trigger-batch-history.ts
import { TRIGGER_BATCH_WORKFLOW_TYPE, triggerBatchWorkflowId } from '../../workflows/trigger-batch/contract';
import { batchInput, createTrigger, fireAt, triggerApp } from '../support/push-trigger-factories';
import { recordPushHistories, writeHistory } from './push-recorder';

recordPushHistories('record-trigger-batch-history', async ({ config, db, env, taskQueue }) => {
  const { appId, device } = await triggerApp(db, config);
  await createTrigger(db, appId, { delayMinutes: 5 });
  await createTrigger(db, appId, { delayMinutes: 5, title: 'Again {{properties.level}}' });
  const firedAt = await env.currentTimeMs();
  const { batchId } = await fireAt(db, new Date(firedAt), { appId, deviceId: device.id });
  const input = batchInput(batchId, firedAt, 5);
  const handle = await env.client.workflow.start(TRIGGER_BATCH_WORKFLOW_TYPE, { taskQueue, workflowId: triggerBatchWorkflowId(batchId), args: [input] });
  console.log('result', await handle.result());
  writeHistory('trigger-batch', await handle.fetchHistory());
});

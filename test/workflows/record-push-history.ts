// Records the push send history that replay.test.ts replays (histories/push-send.json):
// a send of 502 devices (two pages: 500, then 2, one of them a dead token) through the
// real page activity and transports to a push sink of its own, on the time-skipping
// server. Run after a deliberate change of workflows/push-send that the recorded history
// cannot replay (read docs/workflows.md first; keep the old file under another name while
// runs of the old code may exist):
//   set -a; . .data/env; set +a; DATABASE_URL=$TEST_DATABASE_URL npx tsx test/workflows/record-push-history.ts
import { insertSend } from '../../db/repositories/push-sends';
import { pushSendWorkflowId } from '../../workflows/push-send/contract';
import { insertDevices } from '../support/push-send';
import { recordPushHistories, recorderApp, writeHistory } from './push-recorder';

recordPushHistories('record-push-history', async ({ config, db, env, taskQueue }) => {
  const appId = await recorderApp(db, config);
  const live = await insertDevices(db, appId, 501, { platform: (n) => (n % 2 ? 'iOS' : 'Android') });
  const dead = await insertDevices(db, appId, 1, { prefix: `unregistered-${Date.now()}` });
  const { sendId } = await db.transaction((m) => insertSend(m, { appId, title: 'Recorded', body: 'history', deepLink: 'game://x', customData: { a: 1 } }, [...live, ...dead]));
  const handle = await env.client.workflow.start('pushSendWorkflow', { taskQueue, workflowId: pushSendWorkflowId(sendId), args: [{ sendId }] });
  console.log('result', await handle.result());
  writeHistory('push-send', await handle.fetchHistory());
});

// Records the trial request history that replay.test.ts replays (histories/
// trial-request.json): approved for 10 days, a setup link a day later, a 5-day extension
// the day after, the link's token expiring at its 7 days, the reminder 3 days before the
// new end, the expiry at it, and the workflow's end KEEP_AFTER_END_MS later; on the
// time-skipping server with the in-memory activities (the history holds what they
// answered; the real ones run in the end-to-end test). Run after a deliberate change of
// workflows/trial-request that the recorded history cannot replay (read docs/workflows.md
// first; keep the old file under another name while runs of the old code may exist):
//   npx tsx test/workflows/record-trial-request-history.ts
import { randomUUID } from 'node:crypto';
import { Worker } from '@temporalio/worker';
import { approveUpdate, extendUpdate, ONBOARDING_QUEUE, setupLinkUpdate, trialRequestWorkflowId } from '../../workflows/onboarding/contract';
import { trialRequestWorkflow } from '../../workflows/onboarding/trial-request.workflow';
import { fakeTrialActivities } from '../support/trial-request-fakes';
import { timeSkippingEnv } from '../support/temporal';
import { writeHistory } from './push-recorder';

async function main() {
  const env = await timeSkippingEnv();
  const { activities, track } = fakeTrialActivities();
  const taskQueue = `record-${ONBOARDING_QUEUE}`;
  try {
    const worker = await Worker.create({ connection: env.nativeConnection, taskQueue, workflowsPath: require.resolve('../../workflows/queues/onboarding'), activities });
    await worker.runUntil(async () => {
      const requestId = randomUUID();
      const f = track(requestId);
      const actorId = randomUUID();
      const handle = await env.client.workflow.start(trialRequestWorkflow, { taskQueue, workflowId: trialRequestWorkflowId(requestId), args: [{ requestId, searchAttributes: false }] });
      await handle.executeUpdate(approveUpdate, { args: [{ planSlug: 'starter', trialDays: 10, adminNotes: 'recorded', actorId }] });
      await env.sleep('1 day');
      await handle.executeUpdate(setupLinkUpdate, { args: [{ actorId }] });
      await env.sleep('1 day');
      await handle.executeUpdate(extendUpdate, { args: [{ days: 5, actorId }] });
      console.log('result', await handle.result());
      console.log('calls', f.calls.map((c) => `${c.name} ${new Date(c.at).toISOString()}`));
      writeHistory('trial-request', await handle.fetchHistory());
    });
  } finally {
    await env.teardown();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});

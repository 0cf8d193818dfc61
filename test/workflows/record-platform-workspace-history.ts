// Records the platform workspace deletion histories that replay.test.ts replays:
// histories/platform-workspace-deletion.json (the 30-day grace passes and the workspace is
// purged) and histories/platform-workspace-deletion-restored.json (restored by the
// `restore` Update on day 29, the run ends), on the time-skipping server with in-memory
// activities (the history holds what they answered; the real ones run in
// test/workflows/platform-workspace-deletion.test.ts). Run after a deliberate change of
// workflows/platform-workspace that the recorded histories cannot replay (read
// docs/workflows.md first; keep the old files under other names while runs of the old
// code may exist):
//   npx tsx test/workflows/record-platform-workspace-history.ts
import {
  platformWorkspaceDeletionStart,
  restoreUpdate,
  type PlatformWorkspaceActivities,
} from '../../workflows/platform-workspace/contract';
import { platformWorkspaceDeletionWorkflow } from '../../workflows/platform-workspace/workspace-deletion.workflow';
import { recordPlatformHistories } from './platform-recorder';
import { writeHistory } from './push-recorder';

const DAY = 86_400_000;

recordPlatformHistories(async ({ env, taskQueue, withWorker }) => {
  const activities: PlatformWorkspaceActivities = {
  purgePlatformWorkspace: async () => ({ outcome: 'purged' }),
  restorePlatformWorkspace: async ({ workspaceId }) => ({ workspaceId, status: 'active' }),
};
  await withWorker(activities, async () => {
    for (const [name, workspaceId] of [
      ['platform-workspace-deletion', 'ws_01recordedrecordedpurged00'],
      ['platform-workspace-deletion-restored', 'ws_01recordedrecordedrestored'],
    ] as const) {
      const now = await env.currentTimeMs();
      const entry = platformWorkspaceDeletionStart({ workspaceId, requestedAt: new Date(now).toISOString(), purgeAt: new Date(now + 30 * DAY).toISOString() });
      const handle = await env.client.workflow.start(platformWorkspaceDeletionWorkflow, { taskQueue, workflowId: entry.workflowId, args: entry.args });
      if (name.endsWith('restored')) {
        await env.sleep(29 * DAY);
        console.log('restore', await handle.executeUpdate(restoreUpdate, { args: [{ actorId: 'usr_01recordedrecordedrecorded' }] }));
      }
      console.log(name, await handle.result());
      writeHistory(name, await handle.fetchHistory());
    }
  });
});

// Records the platform user workflows' histories that replay.test.ts replays, on the
// time-skipping server with in-memory activities and a stand-in ticket workflow:
// - histories/platform-invitation.json: the invitation email sent;
// - histories/user-deactivation-erased.json: one open ticket unassigned (an Update to its
//   workflow, sent by the activity), the 90-day timer, the erasure;
// - histories/user-deactivation-reactivated.json: a reactivate Update within the window.
// Run after a deliberate change of workflows/platform-user that the recorded histories
// cannot replay (read docs/workflows.md first):
//   npx tsx test/workflows/record-platform-user-history.ts
import {
  PLATFORM_INVITATION_WORKFLOW_TYPE,
  platformInvitationWorkflowId,
  reactivateUpdate,
  USER_DEACTIVATION_WORKFLOW_TYPE,
  userDeactivationWorkflowId,
  type PlatformUserActivities,
} from '../../workflows/platform-user/contract';
import { recordPlatformHistories } from './platform-recorder';
import { writeHistory } from './push-recorder';

recordPlatformHistories(async ({ env, taskQueue, withWorker }) => {
  const activities: PlatformUserActivities = {
  sendPlatformInvitationEmail: async () => 'sent',
  unassignOpenTicketsOfUser: async () => ({ unassigned: 1, skipped: 0 }),
  reactivatePlatformUser: async () => 'active',
  erasePlatformUser: async () => true,
};
  await withWorker(activities, async () => {
    const userId = 'usr_01recordedrecordedrecorded';
    const invitation = await env.client.workflow.start(PLATFORM_INVITATION_WORKFLOW_TYPE, {
      taskQueue,
      workflowId: platformInvitationWorkflowId('5f0e2f4c-0000-4000-8000-recorded0001'),
      args: [{ userId, linkId: '5f0e2f4c-0000-4000-8000-recorded0001' }],
    });
    console.log('invitation', await invitation.result());
    writeHistory('platform-invitation', await invitation.fetchHistory());

    const erased = await env.client.workflow.start(USER_DEACTIVATION_WORKFLOW_TYPE, {
      taskQueue,
      workflowId: userDeactivationWorkflowId(userId, 1),
      args: [{ userId, deactivation: 1, deactivatedAt: new Date(await env.currentTimeMs()).toISOString() }],
    });
    console.log('erased', await erased.result());
    writeHistory('user-deactivation-erased', await erased.fetchHistory());

    const reactivated = await env.client.workflow.start(USER_DEACTIVATION_WORKFLOW_TYPE, {
      taskQueue,
      workflowId: userDeactivationWorkflowId(userId, 2),
      args: [{ userId, deactivation: 2, deactivatedAt: new Date(await env.currentTimeMs()).toISOString() }],
    });
    await env.sleep(3 * 24 * 3600 * 1000);
    console.log('reactivate', await reactivated.executeUpdate(reactivateUpdate));
    console.log('reactivated', await reactivated.result());
    writeHistory('user-deactivation-reactivated', await reactivated.fetchHistory());
  });
});

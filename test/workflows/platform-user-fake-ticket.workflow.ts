// The workflows a time-skipping test of the user deactivation bundles: the real
// deactivation workflow, and a tiny stand-in of the platform ticket workflow (built in its
// own part) that answers `unassignUserUpdate` and tells which users it was asked about.
import { condition, defineQuery, setHandler } from '@temporalio/workflow';
import { unassignUserUpdate, type PlatformTicketChangeReply } from '../../workflows/platform-ticket/contract';

export { userDeactivationWorkflow } from '../../workflows/platform-user/user-deactivation.workflow';
export { platformInvitationWorkflow } from '../../workflows/platform-user/invitation.workflow';

export const unassignedUsersQuery = defineQuery<string[]>('unassignedUsers');

export async function fakePlatformTicketWorkflow(ticketId: string): Promise<void> {
  const asked: string[] = [];
  let version = 1;
  setHandler(unassignedUsersQuery, () => asked);
  setHandler(unassignUserUpdate, async ({ userId }): Promise<PlatformTicketChangeReply> => {
    asked.push(userId);
    version += 1;
    return { ticketId, version, status: 'open', changed: asked.indexOf(userId) === asked.length - 1 };
  });
  await condition(() => false);
}

import { proxyActivities } from '@temporalio/workflow';
import type { InvitationEmailOutcome, InvitationInput, PlatformUserActivities } from './contract';

const { sendPlatformInvitationEmail } = proxyActivities<PlatformUserActivities>({
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: '10 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/**
 * One per invitation link (`platform-invitation/<link id>`), started from the outbox with
 * the invited user and their link: emails the link once (retried until the email chain
 * took it; a link voided meanwhile by a newer invitation is not sent). Its state table:
 *
 * | state   | accepts  | timers |
 * |---------|----------|--------|
 * | sending | nothing  | —      |
 * | done    | run ends | —      |
 */
export async function platformInvitationWorkflow(input: InvitationInput): Promise<InvitationEmailOutcome> {
  return sendPlatformInvitationEmail(input);
}

// What callers know about a platform user's workflows (docs/platform.md, "Users"), both
// started from the workflow-start outbox in the transaction that changes the user:
// - `platform-invitation/<link id>`: emails an invitee their activation link (the link is
//   re-derived from its id by the activity: no secret in the history);
// - `user-deactivation/<usr_id>` (the n-th deactivation after the first:
//   `user-deactivation/<usr_id>/<n>`): unassigns the user's open tickets through each
//   ticket's own workflow (an Update per ticket), then waits 90 days for a reactivation,
//   then erases the user's personal data.
// Inputs, results and replies carry ids, counts and times only, never a name or an email.
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { WorkflowStartEntry } from '../start-entry';
import { PLATFORM_QUEUE } from '../platform-token/contract';

export { PLATFORM_QUEUE };
export const PLATFORM_INVITATION_WORKFLOW_TYPE = 'platformInvitationWorkflow';
export const USER_DEACTIVATION_WORKFLOW_TYPE = 'userDeactivationWorkflow';

export const platformInvitationWorkflowId = (linkId: string) => `platform-invitation/${linkId}`;

/** The workflow of the user's `n`-th deactivation (1 for the first). */
export const userDeactivationWorkflowId = (userId: string, n: number) => (n <= 1 ? `user-deactivation/${userId}` : `user-deactivation/${userId}/${n}`);

export interface InvitationInput {
  userId: string;
  /** the activation link's id; its token is re-derived from it */
  linkId: string;
}

export type InvitationEmailOutcome = 'sent' | 'logged' | 'void';

export interface DeactivationInput {
  userId: string;
  /** which deactivation of the user this is (platform_users.deactivations) */
  deactivation: number;
  /** ISO: the start of the 90-day reactivation window */
  deactivatedAt: string;
}

export type DeactivationState = 'unassigning' | 'waiting' | 'reactivating' | 'reactivated' | 'erasing' | 'erased';

export interface DeactivationResult {
  outcome: 'reactivated' | 'erased' | 'gone';
  unassigned: number;
  skipped: number;
}

export interface ReactivateReply {
  userId: string;
  /** `invited` for a user deactivated before they ever activated */
  status: 'active' | 'invited';
}

export type UnassignOutcome = 'unassigned' | 'unchanged' | 'skipped';

export interface UnassignCounts {
  unassigned: number;
  skipped: number;
}

export interface PlatformUserActivities {
  /** Emails the link (the email chain), unless it is no longer open ('void'). */
  sendPlatformInvitationEmail(input: InvitationInput): Promise<InvitationEmailOutcome>;
  /**
   * Unassigns every open ticket of the user (open or pending, not deleted) through its own
   * workflow: `unassignUserUpdate` to `platform-ticket/<id>`, an Update per ticket, sent by
   * this one activity in pages (ids only, none in the history), its progress in its
   * heartbeat so a retry after a crash goes on where the last attempt was. A ticket whose
   * workflow no longer exists is skipped; one whose start is still in the outbox fails the
   * attempt (retried).
   */
  unassignOpenTicketsOfUser(userId: string): Promise<UnassignCounts>;
  /** deactivated → active (invited if never activated), while it is still this deactivation (null otherwise). */
  reactivatePlatformUser(input: { userId: string; deactivation: number; at: string }): Promise<'active' | 'invited' | null>;
  /** The personal data erased at the end of the window (false when the user is no longer in this deactivation). */
  erasePlatformUser(input: { userId: string; deactivation: number; at: string }): Promise<boolean>;
}

/** Within 90 days of the deactivation: the user is active again, the workflow ends. */
export const reactivateUpdate = defineUpdate<ReactivateReply, []>('reactivate');
export const deactivationStateQuery = defineQuery<DeactivationState>('deactivationState');

export function platformInvitationStart(input: InvitationInput): WorkflowStartEntry<InvitationInput> {
  return { workflowId: platformInvitationWorkflowId(input.linkId), workflowType: PLATFORM_INVITATION_WORKFLOW_TYPE, taskQueue: PLATFORM_QUEUE, args: [input] };
}

export function userDeactivationStart(input: DeactivationInput): WorkflowStartEntry<DeactivationInput> {
  return {
    workflowId: userDeactivationWorkflowId(input.userId, input.deactivation),
    workflowType: USER_DEACTIVATION_WORKFLOW_TYPE,
    taskQueue: PLATFORM_QUEUE,
    args: [input],
  };
}

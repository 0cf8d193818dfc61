// The workflows of the `platform` task queue, and only them: its workers bundle this file
// (workers/queue-platform.ts). One line per platform workflow.
export { platformTokenExpiryWorkflow } from '../platform-token/token-expiry.workflow';
export { platformInvitationWorkflow } from '../platform-user/invitation.workflow';
export { userDeactivationWorkflow } from '../platform-user/user-deactivation.workflow';
export { platformWorkspaceDeletionWorkflow } from '../platform-workspace/workspace-deletion.workflow';
export { platformTicketWorkflow } from '../platform-ticket/platform-ticket.workflow';

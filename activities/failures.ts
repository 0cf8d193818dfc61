import { ApplicationFailure } from '@temporalio/common';

// The one catalogue of failure types activities raise. Non-retryable ones mean
// "retrying cannot help"; everything else (a dropped connection, a timeout) retries.
export const Failures = {
  workspaceNotFound: (id: string) => ApplicationFailure.nonRetryable(`Workspace ${id} does not exist`, 'workspace_not_found'),
  playerNotFound: (id: string) => ApplicationFailure.nonRetryable(`Player ${id} does not exist`, 'player_not_found'),
  ticketNotFound: (id: string) => ApplicationFailure.nonRetryable(`Ticket ${id} does not exist`, 'ticket_not_found'),
  versionConflict: (id: string, expected: number, found: number) =>
    ApplicationFailure.nonRetryable(`Ticket ${id} is at step ${found}, expected ${expected - 1}`, 'version_conflict'),
  /** details[0]: the plan's monthly limit, for the API's 429 */
  ticketQuotaExceeded: (limit: number) =>
    ApplicationFailure.create({ message: `Monthly ticket quota of ${limit} reached`, type: 'ticket_quota_exceeded', nonRetryable: true, details: [limit] }),
  smtpRejected: (message: string) => ApplicationFailure.retryable(message, 'smtp_rejected'),
} as const;

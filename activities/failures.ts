import { ApplicationFailure } from '@temporalio/common';
import { DomainError } from '../domain/errors';

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

/**
 * The one place a domain refusal becomes a Temporal failure: a DomainError (domain/errors.ts)
 * is non-retryable (retrying cannot change a business rule's answer), its code is the
 * failure type and its details the failure's one detail; anything else passes unchanged
 * (a dropped connection, a timeout: retried by the activity's policy).
 */
export function toActivityFailure(err: unknown): unknown {
  if (!(err instanceof DomainError)) return err;
  return ApplicationFailure.create({ message: err.message, type: err.code, nonRetryable: true, details: [err.details] });
}

/** Every function of an activities object with its DomainErrors turned into failures (workers/run-queue-worker.ts). */
export function withDomainFailures<A extends object>(activities: A): A {
  const wrapped: Record<string, unknown> = {};
  for (const [name, fn] of Object.entries(activities)) {
    wrapped[name] =
      typeof fn === 'function'
        ? async (...args: unknown[]) => {
            try {
              return await fn(...args);
            } catch (err) {
              throw toActivityFailure(err);
            }
          }
        : fn;
  }
  return wrapped as A;
}

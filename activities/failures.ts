import { ApplicationFailure } from '@temporalio/common';
import { DomainError, toRefusal } from '../domain/errors';

// Business refusals are DomainErrors (domain/errors.ts), thrown by domain commands; an
// activity never builds a failure for one by hand. Anything else an activity throws (a
// dropped connection, a timeout) stays retryable under the activity's retry policy.

/**
 * The one place a domain refusal becomes a Temporal failure: a DomainError (domain/errors.ts)
 * is non-retryable (retrying cannot change a business rule's answer), carrying its code as
 * the failure type and `{ kind, details }` as its one detail (domain/errors.ts, toRefusal),
 * so the API reads the same DomainError back; anything else passes unchanged
 * (a dropped connection, a timeout: retried by the activity's policy).
 */
export function toActivityFailure(err: unknown): unknown {
  if (!(err instanceof DomainError)) return err;
  return ApplicationFailure.create({ ...toRefusal(err), nonRetryable: true });
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

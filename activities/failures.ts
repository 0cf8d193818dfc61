import { ApplicationFailure } from '@temporalio/common';
import { DomainError } from '../domain/errors';

// Business refusals are DomainErrors (domain/errors.ts), thrown by domain commands; an
// activity never builds a failure for one by hand. Anything else an activity throws (a
// dropped connection, a timeout) stays retryable under the activity's retry policy.

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

// How workflow code refuses (an Update validator, a handler): the same DomainError shape
// an activity's refusal has (domain/errors.ts, toRefusal), so the API reads every refusal
// back as the DomainError it is, whichever side of Temporal made it.
import { ApplicationFailure } from '@temporalio/workflow';
import { DomainError, fromRefusal, toRefusal, type DomainErrorKind } from '../domain/errors';

/** A non-retryable failure that the API answers as DomainError(kind, code, message, details). */
export function refusal(kind: DomainErrorKind, code: string, message: string, details: Record<string, unknown> = {}): ApplicationFailure {
  return asRefusal(new DomainError(kind, code, message, details));
}

/** A domain command's refusal thrown from workflow code (the same DomainError the API answers). */
export function asRefusal(err: DomainError): ApplicationFailure {
  return ApplicationFailure.create({ ...toRefusal(err), nonRetryable: true });
}

/** Whether `err` is a domain refusal (made here or by an activity), and not our side failing. */
export function isRefusal(err: unknown): err is ApplicationFailure {
  return err instanceof ApplicationFailure && fromRefusal(err.type, err.message, err.details) !== null;
}

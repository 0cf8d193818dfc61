// The platform commands' refusals, one factory each. The platform API answers with the
// contract's generic snake_case codes (contracts.md, "Platform API": `not_found`,
// `forbidden`, `conflict`, `validation_failed`, and `gone` for a window that has passed);
// the message says which rule refused. Pure: workflow code may throw them.
import { DomainError } from '../errors';

/** An unknown id and one the caller may not see are the same 404 (`No <what> with id '<id>'`). */
export const platformNotFound = (what: string, id: string) => new DomainError('not_found', 'not_found', `No ${what} with id '${id}'`);

export const platformForbidden = (message: string) => new DomainError('forbidden', 'forbidden', message);

export const platformConflict = (message: string, details: Record<string, unknown> = {}) => new DomainError('conflict', 'conflict', message, details);

/** A window that has passed: a user deactivated more than 90 days ago, a workspace or ticket past its grace. */
export const platformGone = (message: string) => new DomainError('gone', 'gone', message);

/** One field's refusal, in the shape every API answers as per-field details (`details.errors`). */
export const platformInvalidField = (field: string, message: string) =>
  new DomainError('invalid', 'validation_failed', message, { errors: { [field]: [message] } });

/** The Idempotency-Key's lease was taken over by another request before this one committed. */
export const platformIdempotencyInProgress = () =>
  new DomainError('conflict', 'conflict', 'A request with this Idempotency-Key is still in progress');

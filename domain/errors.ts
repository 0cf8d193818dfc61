// The one error type domain commands throw. A command says what went wrong in business
// terms (kind + code + message); the layer above turns it into its own form in one
// place each: activities into a Temporal ApplicationFailure (activities/failures.ts,
// toActivityFailure), the HTTP API into its envelope (api/kit/error-middleware.ts).
// Nothing in domain/ knows about Temporal or HTTP.

/** What kind of refusal this is; the API derives its status from it. */
export type DomainErrorKind =
  | 'not_found' // 404
  | 'conflict' // 409
  | 'invalid' // 400
  | 'gone' // 410: it existed, and its window has passed (a user's 90-day reactivation)
  | 'unprocessable' // 422
  | 'quota_exceeded' // 429
  | 'forbidden'; // 403

export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    /** stable, snake_case; also the ApplicationFailure type under Temporal */
    readonly code: string,
    message: string,
    /** small JSON values the caller may need (a limit, an id); never secrets */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'DomainError';
  }
}

export const isDomainError = (err: unknown): err is DomainError => err instanceof DomainError;

const KINDS: ReadonlySet<string> = new Set<DomainErrorKind>(['not_found', 'conflict', 'invalid', 'gone', 'unprocessable', 'quota_exceeded', 'forbidden']);

/**
 * A DomainError as it travels across Temporal (an activity's failure, an Update
 * validator's or handler's refusal): the ApplicationFailure's type is the code, its one
 * detail is `{ kind, details }`. Plain data, so this file stays free of Temporal:
 * activities/failures.ts and workflows/refusal.ts wrap it, api/kit reads it back.
 */
export interface Refusal {
  type: string;
  message: string;
  details: [{ kind: DomainErrorKind; details: Record<string, unknown> }];
}

export function toRefusal(err: DomainError): Refusal {
  return { type: err.code, message: err.message, details: [{ kind: err.kind, details: err.details }] };
}

/**
 * The DomainError a failure carried (fromRefusal(failure.type, failure.message,
 * failure.details)); null for a failure that is not a domain refusal (one recorded before
 * refusals carried their kind, a crash, a time-out).
 */
export function fromRefusal(type: string | null | undefined, message: string, details: readonly unknown[] | null | undefined): DomainError | null {
  const d = details?.[0] as { kind?: unknown; details?: unknown } | undefined;
  if (!type || !d || typeof d.kind !== 'string' || !KINDS.has(d.kind)) return null;
  const extra = d.details && typeof d.details === 'object' ? (d.details as Record<string, unknown>) : {};
  return new DomainError(d.kind as DomainErrorKind, type, message, extra);
}

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

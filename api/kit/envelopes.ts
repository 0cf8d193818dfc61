// One error envelope per API: the three specs are not reconciled, so each keeps its own
// shape and code spelling. Routes throw AppError with the generic codes (errors.ts, which
// the ticketing envelope shows as they are); the platform and push presenters translate
// those, and pass an API's own codes through.
import type { Context } from 'koa';
import type { AppError } from './errors';

export interface ErrorEnvelope {
  /** the response body for `err` */
  present(err: AppError, ctx: Context): unknown;
}

/** The ticketing spec: `{ error: { code, message, status, requestId, details? } }`. */
export const ticketingEnvelope: ErrorEnvelope = {
  present: (err, ctx) => ({
    error: {
      code: err.code,
      message: err.message,
      status: err.status,
      requestId: ctx.state.requestId,
      ...(err.details ? { details: err.details } : {}),
    },
  }),
};

// Generic codes (what the kit and shared code throw) → the platform spec's snake_case.
const PLATFORM_CODES: Record<string, string> = {
  validation_error: 'validation_failed',
  rate_limit_exceeded: 'rate_limited',
  ticket_not_found: 'not_found',
  agent_not_found: 'not_found',
  player_not_found: 'not_found',
  // the webhook domain's refusals (domain/webhooks/errors.ts), shared by both APIs' endpoints
  webhook_not_found: 'not_found',
  delivery_not_found: 'not_found',
  delivery_in_progress: 'conflict',
  webhook_paused: 'conflict',
  webhook_limit_reached: 'conflict',
};

/** The platform spec (docs/api-kit.md): `{ error: { code, message, status, request_id, details? } }`. */
export const platformEnvelope: ErrorEnvelope = {
  present: (err, ctx) => ({
    error: {
      code: PLATFORM_CODES[err.code] ?? err.code,
      message: err.message,
      status: err.status,
      request_id: ctx.state.requestId,
      ...(err.details ? { details: err.details } : {}),
    },
  }),
};

/** The push spec's `code` values (docs/api-kit.md), by status for the generic errors. */
export const PUSH_CODES = {
  400: 'VALIDATION_FAILED',
  401: 'UNAUTHORIZED',
  403: 'FORBIDDEN',
  404: 'RESOURCE_NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  429: 'RATE_LIMITED',
  500: 'INTERNAL_ERROR',
  503: 'SERVICE_UNAVAILABLE',
} as const;

export function pushCode(err: AppError): string {
  // A push route may throw its own spec code (TRIAL_EXPIRED) in upper case: kept as is.
  if (/^[A-Z][A-Z_]+$/.test(err.code)) return err.code;
  return PUSH_CODES[err.status as keyof typeof PUSH_CODES] ?? (err.status >= 500 ? 'INTERNAL_ERROR' : err.code.toUpperCase());
}

/** The push spec: `{ message, errors: { field: [...] } }` on 400, `{ message, code }` otherwise. */
export const pushEnvelope: ErrorEnvelope = {
  present: (err) =>
    err.status === 400
      ? { message: err.message, code: pushCode(err), errors: err.details ?? {} }
      : { message: err.message, code: pushCode(err) },
};

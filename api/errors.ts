// The one error type routes throw. The error middleware (api/kit/error-middleware.ts)
// turns it into the envelope of the API that served the request; nothing else writes
// an error body. Codes are the ticketing API's; the platform and push envelopes map the
// generic ones (validation_error, not_found, …) onto their own spellings (api/kit/envelopes.ts).

/** Per-field messages, as zod reported them: `{ "body.title": ["Required"] }`. */
export type FieldErrors = Record<string, string[]>;

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly details?: FieldErrors,
  ) {
    super(message);
  }
}

export const errors = {
  validation: (message: string, details?: FieldErrors) => new AppError(400, 'validation_error', message, {}, details),
  unauthorized: (message = 'Missing or invalid credentials') => new AppError(401, 'unauthorized', message),
  forbidden: (message = 'The API key lacks permission for this operation or workspace') =>
    new AppError(403, 'forbidden', message),
  notFound: (code: string, message: string) => new AppError(404, code, message),
  ticketNotFound: (id: string) => new AppError(404, 'ticket_not_found', `No ticket with id '${id}' in this workspace`),
  agentNotFound: (id: string) => new AppError(404, 'agent_not_found', `No agent with id '${id}' in this workspace`),
  playerNotFound: (id: string) => new AppError(404, 'player_not_found', `No player '${id}' in this workspace`),
  ticketClosed: (id: string) =>
    new AppError(409, 'ticket_already_closed', `Ticket '${id}' is closed; closed tickets cannot be changed`),
  invalidTransition: (from: string, to: string) =>
    new AppError(422, 'invalid_status_transition', `Cannot move a ticket from '${from}' to '${to}'`),
  conflict: (code: string, message: string) => new AppError(409, code, message),
  rateLimited: (retryAfterSeconds: number) =>
    new AppError(429, 'rate_limit_exceeded', `Rate limit exceeded; retry in ${retryAfterSeconds} seconds`, {
      'Retry-After': String(retryAfterSeconds),
    }),
  quotaExceeded: (limit: number) =>
    new AppError(429, 'ticket_quota_exceeded', `Monthly ticket quota of ${limit} tickets for this plan is used up`),
  unavailable: (message = 'A dependency is unavailable; nothing was changed, retry later', retryAfterSeconds = 5) =>
    new AppError(503, 'service_unavailable', message, { 'Retry-After': String(retryAfterSeconds) }),
  methodNotAllowed: (method: string, path: string, allow: string[]) =>
    new AppError(405, 'method_not_allowed', `${method} is not served on ${path}; allowed: ${allow.join(', ')}`, {
      Allow: allow.join(', '),
    }),
  // The connection is closed after it: the unread rest of the body must not be parsed as the next request.
  payloadTooLarge: (limit: string) =>
    new AppError(413, 'payload_too_large', `Request body is larger than ${limit}`, { Connection: 'close' }),
};

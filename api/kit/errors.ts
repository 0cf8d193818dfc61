// The one error type routes throw, and the factories of the generic refusals every API
// shares. The error middleware (error-middleware.ts) turns an AppError into the envelope
// of the API that served the request; nothing else writes an error body. The codes here
// are generic (validation_error, not_found, …); the platform and push envelopes map them
// onto their own spellings (envelopes.ts). An API's own refusals live in its folder
// (api/ticketing/errors.ts).

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
  /** `No <what> with id '<id>'`: an unknown id, or one the caller may not see. */
  noSuch: (what: string, id: string) => new AppError(404, 'not_found', `No ${what} with id '${id}'`),
  conflict: (code: string, message: string) => new AppError(409, code, message),
  rateLimited: (retryAfterSeconds: number) =>
    new AppError(429, 'rate_limit_exceeded', `Rate limit exceeded; retry in ${retryAfterSeconds} seconds`, {
      'Retry-After': String(retryAfterSeconds),
    }),
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

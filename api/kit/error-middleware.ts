import type { Context, Middleware } from 'koa';
import { AppError, type FieldErrors, errors } from './errors';
import { DomainError, type DomainErrorKind } from '../../domain/errors';
import type { Logger } from '../../lib/logger';
import { ticketingEnvelope, type ErrorEnvelope } from './envelopes';
import { isDependencyDown } from './dependency-errors';

// Koa, koa-body (co-body/raw-body) and http-errors signal client mistakes with `status`/`expose`.
function fromHttpError(err: any, bodyLimit: string): AppError | undefined {
  const status: number | undefined = err?.status ?? err?.statusCode;
  if (!status || status >= 500) return undefined;
  if (status === 413) return errors.payloadTooLarge(bodyLimit);
  if (status === 415) return new AppError(415, 'unsupported_media_type', 'Request body must be application/json');
  if (status === 400 && (err.type === 'entity.parse.failed' || err instanceof SyntaxError || /JSON/i.test(String(err.message))))
    return errors.validation('Request body is not valid JSON');
  if (status === 400) return errors.validation(err.expose ? err.message : 'Bad request');
  return new AppError(status, 'error', err.expose ? err.message : 'Request failed');
}

const STATUS_OF_KIND: Record<DomainErrorKind, number> = {
  invalid: 400,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  unprocessable: 422,
  quota_exceeded: 429,
};

/**
 * A domain command's refusal (domain/errors.ts): its kind gives the status, its code and
 * message pass through, and an invalid input's per-field messages (`details.errors`) too.
 */
export function fromDomainError(err: DomainError): AppError {
  const fields = err.kind === 'invalid' ? (err.details.errors as FieldErrors | undefined) : undefined;
  return new AppError(STATUS_OF_KIND[err.kind], err.code, err.message, {}, fields);
}

export interface ErrorHandlerOptions {
  logger: Logger;
  /** each API's prefix and envelope; the first prefix that matches the path wins */
  envelopes: Array<[prefix: string, envelope: ErrorEnvelope]>;
  /** the methods some route serves on a path (for 405 and `Allow`); empty: no such path */
  allowedMethods(path: string): string[];
  bodyLimit: string;
}

/**
 * The only place an error becomes a response. Each API prefix has its own envelope
 * (the three specs are not reconciled); a dependency that is down (dependency-errors.ts)
 * is a 503 with Retry-After; anything else unexpected is logged and is a 500.
 * A path that exists but does not serve the method is a 405 with `Allow` (OPTIONS
 * answers 204 with it); a path that does not exist is a 404.
 */
export function errorHandler(opts: ErrorHandlerOptions): Middleware {
  const envelopeOf = (ctx: Context): ErrorEnvelope =>
    opts.envelopes.find(([prefix]) => ctx.path === prefix || ctx.path.startsWith(prefix + '/'))?.[1] ?? ticketingEnvelope;
  return async (ctx, next) => {
    try {
      await next();
      if ((ctx.status === 404 || ctx.status === 405) && ctx.body === undefined) {
        const allow = opts.allowedMethods(ctx.path);
        if (!allow.length) throw new AppError(404, 'not_found', `No route for ${ctx.method} ${ctx.path}`);
        if (ctx.method === 'OPTIONS') {
          ctx.set('Allow', [...allow, 'OPTIONS'].join(', '));
          ctx.status = 204;
          return;
        }
        throw errors.methodNotAllowed(ctx.method, ctx.path, allow);
      }
    } catch (raw: any) {
      let err = raw instanceof AppError ? raw : raw instanceof DomainError ? fromDomainError(raw) : fromHttpError(raw, opts.bodyLimit);
      if (!err && isDependencyDown(raw)) {
        // PostgreSQL, Redis, Temporal or a worker is down: the client may retry (a 500 is a bug)
        opts.logger.warn({ err: raw, path: ctx.path, requestId: ctx.state.requestId }, 'dependency unavailable');
        err = errors.unavailable();
      }
      if (!err) {
        opts.logger.error({ err: raw, path: ctx.path, requestId: ctx.state.requestId }, 'unhandled error');
        err = new AppError(500, 'internal_error', 'Internal server error');
      }
      ctx.status = err.status;
      for (const [name, value] of Object.entries(err.headers)) ctx.set(name, value);
      ctx.body = envelopeOf(ctx).present(err, ctx);
    }
  };
}

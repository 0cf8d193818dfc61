import type { Context, Middleware } from 'koa';
import { AppError } from '../errors';
import type { Logger } from '../../lib/logger';

export type ErrorPresenter = (err: AppError, ctx: Context) => unknown;

/** The ticketing envelope: `{ error: { code, message, status, requestId } }`. */
export const ticketingEnvelope: ErrorPresenter = (err, ctx) => ({
  error: { code: err.code, message: err.message, status: err.status, requestId: ctx.state.requestId },
});

// Koa, body-parser and http-errors signal client mistakes with `status`/`expose`.
function fromHttpError(err: any): AppError | undefined {
  const status: number | undefined = err?.status ?? err?.statusCode;
  if (!status || status >= 500) return undefined;
  if (status === 413) return new AppError(413, 'payload_too_large', 'Request body is too large');
  if (status === 415) return new AppError(415, 'unsupported_media_type', 'Request body must be application/json');
  if (status === 400 && (err.type === 'entity.parse.failed' || err instanceof SyntaxError))
    return new AppError(400, 'validation_error', 'Request body is not valid JSON');
  if (status === 400) return new AppError(400, 'validation_error', err.expose ? err.message : 'Bad request');
  return new AppError(status, 'error', err.expose ? err.message : 'Request failed');
}

/**
 * The only place an error becomes a response. Each API prefix has its own envelope
 * (the three specs are not reconciled); anything unexpected is logged and is a 500.
 */
export function errorHandler(logger: Logger, presenters: Array<[prefix: string, presenter: ErrorPresenter]>): Middleware {
  const present = (ctx: Context): ErrorPresenter =>
    presenters.find(([prefix]) => ctx.path === prefix || ctx.path.startsWith(prefix + '/'))?.[1] ?? ticketingEnvelope;
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        throw new AppError(404, 'not_found', `No route for ${ctx.method} ${ctx.path}`);
      }
    } catch (raw: any) {
      let err = raw instanceof AppError ? raw : fromHttpError(raw);
      if (!err) {
        logger.error({ err: raw, path: ctx.path, requestId: ctx.state.requestId }, 'unhandled error');
        err = new AppError(500, 'internal_error', 'Internal server error');
      }
      ctx.status = err.status;
      for (const [name, value] of Object.entries(err.headers)) ctx.set(name, value);
      ctx.body = present(ctx)(err, ctx);
    }
  };
}

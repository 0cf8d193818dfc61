// A dependency that is down is a 503 with Retry-After in the push envelope, not a 500
// (contracts.md, "Failures and hostile input"): Postgres connection failures (refused,
// reset, terminated, pool timeout, server shutting down) and Redis connection failures
// surfacing from a push route become errors.unavailable; anything else stays a bug.
import type { Middleware } from 'koa';
import type { AppDeps } from '../deps';
import { AppError, errors } from '../errors';

const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
// SQLSTATE class 08 (connection exception) and 57P0x (admin shutdown, crash shutdown, cannot connect now)
const SQLSTATE = /^(08|57P0)/;
const MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Connection is closed|MaxRetriesPerRequestError|Reached the max retries per request/i;

export function isDependencyDown(err: unknown): boolean {
  for (let e: any = err, depth = 0; e && depth < 4; e = e.driverError ?? e.cause, depth++) {
    if (typeof e.code === 'string' && (NETWORK_CODES.has(e.code) || SQLSTATE.test(e.code))) return true;
    if (typeof e.message === 'string' && MESSAGES.test(e.message)) return true;
    if (e.name === 'MaxRetriesPerRequestError') return true;
  }
  return false;
}

export function dependencyErrors(deps: AppDeps): Middleware {
  return async (_ctx, next) => {
    try {
      await next();
    } catch (err) {
      if (err instanceof AppError || !isDependencyDown(err)) throw err;
      deps.logger.warn({ err }, 'push request failed: a dependency is down');
      throw errors.unavailable();
    }
  };
}

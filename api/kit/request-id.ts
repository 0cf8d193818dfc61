import type { Middleware } from 'koa';
import { newId } from '../../lib/ids';

/** Every response carries `X-Request-Id` (`req_…`), the same id the error envelope shows. */
export function requestId(): Middleware {
  // not async: one promise less per request (every request passes here)
  return (ctx, next) => {
    ctx.state.requestId = newId('req');
    ctx.set('X-Request-Id', ctx.state.requestId);
    return next();
  };
}

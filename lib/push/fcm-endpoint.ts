// firebase-admin 13 has no option for the FCM host: `sendEach` opens its HTTP/2 session
// with `http2.connect('https://fcm.googleapis.com')` and ignores `httpAgent` (the known
// trap in docs/push.md). To point it at another endpoint (the local sink, a staging
// proxy) we wrap node's `http2.connect` once: a connect to exactly Google's FCM
// authority, made while `withFcmEndpoint(endpoint, …)` is on the async stack, goes to
// `endpoint` instead. Any other connect, and every connect outside that scope, is left
// untouched, so an unset FCM_ENDPOINT talks to Google and other http2 users see no change.
import { AsyncLocalStorage } from 'node:async_hooks';

export const GOOGLE_FCM_AUTHORITY = 'https://fcm.googleapis.com';

const scope = new AsyncLocalStorage<string>();
let installed = false;

function install() {
  if (installed) return;
  installed = true;
  // the CommonJS module object firebase-admin's `require("http2")` returns (writable
  // properties, read at call time): an ES import binding could not be replaced
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const http2 = require('node:http2') as { connect: (...args: unknown[]) => unknown };
  const original = http2.connect;
  http2.connect = function connect(this: unknown, authority: unknown, ...rest: unknown[]) {
    const endpoint = scope.getStore();
    if (endpoint && String(authority).replace(/\/+$/, '') === GOOGLE_FCM_AUTHORITY) {
      const session = original.call(this, endpoint, ...rest) as { request: (h: Record<string, unknown>, ...o: unknown[]) => unknown };
      // firebase-admin sends `:scheme: https:` (URL.protocol, colon included); Google's
      // front end takes it, a strict HTTP/2 server (nghttp2, node's) refuses the stream
      // with PROTOCOL_ERROR. Send the endpoint's real scheme instead.
      const scheme = new URL(endpoint).protocol.replace(/:$/, '');
      const request = session.request.bind(session);
      session.request = (headers, ...o) => request({ ...headers, ':scheme': scheme }, ...o);
      return session;
    }
    return original.call(this, authority, ...rest);
  } as typeof http2.connect;
}

/** Runs `fn` with FCM's HTTP/2 connects going to `endpoint` (undefined: Google's host). */
export function withFcmEndpoint<T>(endpoint: string | undefined, fn: () => T): T {
  if (!endpoint) return fn();
  install();
  return scope.run(endpoint.replace(/\/+$/, ''), fn);
}

// Settings sessions in tests (docs/settings.md, "Sessions"): sign in over HTTP as the
// pages do, then call the APIs with the session cookie (and its CSRF token on changes).
import assert from 'node:assert/strict';
import type { TestApi, TestResponse } from './api';

export interface SignedIn {
  /** `name=value`, as a browser sends it back */
  cookie: string;
  csrf: string;
  body: any;
  res: TestResponse;
}

/** POST /settings/session; `expect` the status (201 by default). */
export async function signIn(api: TestApi, body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<SignedIn> {
  const res = await api.request('POST', '/settings/session', { body, headers });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  const setCookie = res.headers.getSetCookie()[0];
  assert.ok(setCookie, 'no Set-Cookie');
  return { cookie: setCookie.split(';')[0], csrf: res.body.csrfToken, body: res.body, res };
}

/** Headers of a request made with the session: the cookie, and the CSRF token when given. */
export function withSession(s: Pick<SignedIn, 'cookie'>, csrf?: string): Record<string, string> {
  return csrf === undefined ? { cookie: s.cookie } : { cookie: s.cookie, 'x-csrf-token': csrf };
}

/** A mutable clock for AppDeps.clock: `clock.advance(ms)` moves every expiry check. */
export function steppingClock(start = Date.now()) {
  let now = start;
  return {
    read: () => new Date(now),
    advance(ms: number) {
      now += ms;
    },
  };
}

// The operator page's calls to the push API: the signed-in session's tokens (the access
// token in sessionStorage, gone with the tab; the refresh token in memory only), one
// refresh on a 401, and the answer to a call refused for the session (401/403).
import { request } from '../../assets/http.js';

const SESSION_KEY = 'trial-admin-session';

let session = loadSession(); // {accessToken, email}
let refreshToken = null; // memory only: a reload asks for the password again after 15 min
let onSessionLost = () => {};

function loadSession() {
  try {
    const raw = sessionStorage.getItem(SESSION_KEY);
    return raw ? JSON.parse(raw) : null;
  } catch (e) {
    return null;
  }
}

function saveSession(s) {
  session = s;
  try {
    if (s) sessionStorage.setItem(SESSION_KEY, JSON.stringify(s));
    else sessionStorage.removeItem(SESSION_KEY);
  } catch (e) {
    /* private mode: memory only */
  }
}

export const signedIn = () => session !== null;
export const sessionEmail = () => (session && session.email) || '';

/** Keeps the tokens of a login or refresh answer. */
export function adoptAuthResult(result, email) {
  refreshToken = result.refreshToken || null;
  saveSession({ accessToken: result.accessToken, email: (result.user && result.user.email) || email });
}

export function forgetSession() {
  saveSession(null);
  refreshToken = null;
}

/** What to do when a call is refused for the session: `lost(reason)` (the sign-in form). */
export function whenSessionLost(lost) {
  onSessionLost = lost;
}

/** A call with the session's token (`opts.auth: false`: without); a 401 refreshes once. */
export async function call(method, path, body, opts) {
  opts = opts || {};
  const res = await request(method, path, body, opts.auth !== false && session ? session.accessToken : undefined);
  // an expired access token: one refresh, then the call once more
  if (res.status === 401 && opts.auth !== false && refreshToken && !opts.retried) {
    const refreshed = await request('POST', '/auth/refresh', { refreshToken: refreshToken });
    refreshToken = null;
    if (refreshed.ok) {
      adoptAuthResult(refreshed.body, session && session.email);
      return call(method, path, body, Object.assign({}, opts, { retried: true }));
    }
  }
  return res;
}

/** A 401 or 403 on an admin call: the session is over, with the reason; true if so. */
export function authProblem(res) {
  if (res.status === 401) {
    onSessionLost('Your session has ended. Sign in again.');
    return true;
  }
  if (res.status === 403) {
    onSessionLost('This account is not a super-admin. Sign in with a super-admin account.');
    return true;
  }
  return false;
}

// The operator page's calls to the push API through the settings session
// (/assets/session.js; docs/settings.md, "Sessions"): signing in turns the email and
// password into an HttpOnly session cookie, so no token sits in the page, in
// sessionStorage or in localStorage, and a reload keeps the session until it expires.
import { api, loadSession, signIn as startSession, signOut as endSession } from '../../assets/session.js';

let session = null; // GET /settings/session's body of a push session: {label (the email), csrfToken, …}
let onSessionLost = () => {};

export const signedIn = () => session !== null;
export const sessionEmail = () => (session && session.label) || '';

/** The session the browser still has (a reload), if it is a push account's; else null. */
export async function restoreSession() {
  const s = await loadSession();
  session = s && s.api === 'push' ? s : null;
  return session;
}

/** POST /settings/session with the push account's email and password: `{ok, status, body}`. */
export async function signIn(email, password) {
  const res = await startSession({ api: 'push', email: email, password: password });
  session = res.ok ? res.body : null;
  return res;
}

/** Ends the session on the server (DELETE /settings/session) and here. */
export async function forgetSession() {
  session = null;
  await endSession();
}

/** What to do when a call is refused for the session: `lost(reason)` (the sign-in form). */
export function whenSessionLost(lost) {
  onSessionLost = lost;
}

/** A call of the push API (`path` under /api/v1) as the signed-in user. */
export function call(method, path, body) {
  return api(method, '/api/v1' + path, body);
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

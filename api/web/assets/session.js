// The pages' session with the API host (docs/settings.md, "Sessions"): signing in with a
// credential of one API turns it into an HttpOnly cookie the browser keeps and no script
// can read; this module keeps only the session's description, with its CSRF token, in
// memory (never in sessionStorage or localStorage). Every call goes to the APIs' own
// routes (/v1, /platform/v1, /api/v1) with the cookie, the CSRF token on every change and
// an Idempotency-Key on every POST, and every outcome, a network failure included, is
// `{ok, status, body}`: no caller needs a catch.
import { sendJson, uuid } from './http.js';

const SESSION_PATH = '/settings/session';
const UNSAFE = ['POST', 'PUT', 'PATCH', 'DELETE'];

let current = null; // the session body of GET /settings/session, or null
const lostHandlers = [];

const send = (method, path, body, headers) => sendJson(method, path, body, headers, 'same-origin');

function lost(res) {
  current = null;
  for (const fn of lostHandlers) {
    try {
      fn(res);
    } catch (e) {
      /* one handler's failure does not keep the others from running */
    }
  }
}

/** The signed-in session (`{api, label, organizationId, workspaceId, environment, csrfToken, expiresAt, idleExpiresAt}`), or null. */
export async function loadSession() {
  const res = await send('GET', SESSION_PATH);
  current = res.ok ? res.body : null;
  return current;
}

/** `{api:'ticketing'|'platform', credential}` or `{api:'push', email, password}` → `{ok, status, body}`. */
export async function signIn(body) {
  const res = await send('POST', SESSION_PATH, body);
  if (res.ok) current = res.body;
  return res;
}

/** Ends the session on the server and forgets it here. */
export async function signOut() {
  const headers = current ? { 'X-CSRF-Token': current.csrfToken } : {};
  const res = await send('DELETE', SESSION_PATH, undefined, headers);
  current = null;
  return res;
}

/** A call of an API route (a full path such as `/v1/webhooks?…`) as the signed-in credential. */
export async function api(method, path, body) {
  method = method.toUpperCase();
  const headers = {};
  if (UNSAFE.indexOf(method) >= 0) {
    if (!current) await loadSession();
    if (current) headers['X-CSRF-Token'] = current.csrfToken;
  }
  if (method === 'POST') headers['Idempotency-Key'] = uuid();
  const res = await send(method, path, body, headers);
  if (res.status === 401) lost(res);
  return res;
}

/** `fn(res)` runs whenever a call finds the session gone (a 401): expired, signed out elsewhere, credential revoked. */
export function onSessionLost(fn) {
  lostHandlers.push(fn);
}

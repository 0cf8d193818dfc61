// The pages' one way to send a JSON call (same origin, no cached answers; every outcome,
// a refusal or a network failure, as `{ok, status, body}` so that no caller needs a
// catch): `sendJson`, which the session's calls use (session.js), and `request`, a
// bearer call of the push API (/api/v1, no cookies, an Idempotency-Key on every POST)
// that the set-password page makes.

const API = '/api/v1';

// crypto.randomUUID exists only in secure contexts (https, localhost)
export function uuid() {
  if (window.crypto && typeof window.crypto.randomUUID === 'function') return window.crypto.randomUUID();
  const b = new Uint8Array(16);
  window.crypto.getRandomValues(b);
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = Array.prototype.map.call(b, (x) => (x + 256).toString(16).slice(1)).join('');
  return h.slice(0, 8) + '-' + h.slice(8, 12) + '-' + h.slice(12, 16) + '-' + h.slice(16, 20) + '-' + h.slice(20);
}

const NETWORK_MESSAGE = 'The server cannot be reached. Check the connection and try again.';

/**
 * One JSON call to `url` (same origin): `credentials` 'omit' (bearer calls) or
 * 'same-origin' (the session's cookie); a network failure answers status 0 with the
 * message in both envelopes' spellings (`message`: push; `error.message`: the others).
 */
export async function sendJson(method, url, body, headers, credentials) {
  const h = Object.assign({ Accept: 'application/json' }, headers || {});
  if (body !== undefined) h['Content-Type'] = 'application/json';
  let res;
  try {
    res = await fetch(url, {
      method: method,
      headers: h,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: credentials,
      cache: 'no-store',
    });
  } catch (e) {
    return { ok: false, status: 0, body: { error: { code: 'network_error', message: NETWORK_MESSAGE }, message: NETWORK_MESSAGE } };
  }
  let parsed = null;
  if (res.status !== 204) {
    try {
      parsed = await res.json();
    } catch (e) {
      parsed = null;
    }
  }
  return { ok: res.ok, status: res.status, body: parsed };
}

/** One call of the push API; `accessToken`, when given, goes in the Authorization header. */
export function request(method, path, body, accessToken) {
  const headers = {};
  if (method === 'POST') headers['Idempotency-Key'] = uuid();
  if (accessToken) headers.Authorization = 'Bearer ' + accessToken;
  return sendJson(method, API + path, body, headers, 'omit');
}

/**
 * The push envelope `{message, code, errors?}` (or the `{error: {code, message}}` of
 * /settings/session) as one line of text; the code only where `withCode` (the operator
 * page shows it, the owner's page does not).
 */
export function describeError(res, withCode) {
  const b = (res.body && res.body.error) || res.body || {};
  let text = (b.message || 'The request failed (' + res.status + ').') + (withCode && b.code ? ' [' + b.code + ']' : '');
  if (b.errors && typeof b.errors === 'object') {
    const parts = Object.keys(b.errors).map((field) => {
      const msgs = b.errors[field];
      return field + ': ' + (Array.isArray(msgs) ? msgs.join(', ') : String(msgs));
    });
    if (parts.length) text += ' — ' + parts.join('; ');
  }
  return text;
}

// The pages' one way to call the push API (/api/v1, same origin): JSON in and out, an
// Idempotency-Key on every POST, no cookies, no cached answers, and every outcome (a
// refusal, a network failure) as `{ok, status, body}` so that no caller needs a catch.
// Shared by the operator page and the set-password page.

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

/** One call; `accessToken`, when given, goes in the Authorization header. */
export async function request(method, path, body, accessToken) {
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method === 'POST') headers['Idempotency-Key'] = uuid();
  if (accessToken) headers.Authorization = 'Bearer ' + accessToken;
  let res;
  try {
    res = await fetch(API + path, {
      method: method,
      headers: headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'omit',
      cache: 'no-store',
    });
  } catch (e) {
    return { ok: false, status: 0, body: { message: 'The server cannot be reached. Check the connection and try again.' } };
  }
  let parsed = null;
  try {
    parsed = await res.json();
  } catch (e) {
    parsed = null;
  }
  return { ok: res.ok, status: res.status, body: parsed };
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

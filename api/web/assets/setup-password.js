// The set-password page: reads the setup token from the address once (and drops it from
// the address bar and the history entry at once), asks the push API who it is for, sets
// the password, then signs in with it to show that it works (docs/trial-onboarding.md).
'use strict';

(function () {
  var API = '/api/v1';
  var MIN = 8; // the password rule of the push API's accounts (api/push/auth/schema.ts)
  var MAX = 256;

  // Read before anything else can run or fail, then forgotten by the address bar: the
  // token lives on only in this closure.
  var token = new URLSearchParams(window.location.search).get('token');
  if (window.location.search) window.history.replaceState(null, '', window.location.pathname);

  var info = null;
  var $ = function (id) { return document.getElementById(id); };

  function uuid() {
    if (window.crypto && typeof window.crypto.randomUUID === 'function') return window.crypto.randomUUID();
    var b = new Uint8Array(16);
    window.crypto.getRandomValues(b);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    var h = Array.prototype.map.call(b, function (x) { return (x + 256).toString(16).slice(1); }).join('');
    return h.slice(0, 8) + '-' + h.slice(8, 12) + '-' + h.slice(12, 16) + '-' + h.slice(16, 20) + '-' + h.slice(20);
  }

  async function call(method, path, body, accessToken) {
    var headers = { Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (method === 'POST') headers['Idempotency-Key'] = uuid();
    if (accessToken) headers.Authorization = 'Bearer ' + accessToken;
    try {
      var res = await fetch(API + path, {
        method: method,
        headers: headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: 'omit',
        cache: 'no-store',
      });
      var parsed = null;
      try {
        parsed = await res.json();
      } catch (e) {
        parsed = null;
      }
      return { ok: res.ok, status: res.status, body: parsed };
    } catch (e) {
      return { ok: false, status: 0, body: { message: 'The server cannot be reached. Check the connection and try again.' } };
    }
  }

  function describeError(res) {
    var b = res.body || {};
    var text = b.message || 'The request failed (' + res.status + ').';
    if (b.errors && typeof b.errors === 'object') {
      var parts = Object.keys(b.errors).map(function (f) {
        var m = b.errors[f];
        return f + ': ' + (Array.isArray(m) ? m.join(', ') : String(m));
      });
      if (parts.length) text += ' — ' + parts.join('; ');
    }
    return text;
  }

  function announce(text, kind) {
    var s = $('status');
    s.textContent = text || '';
    s.className = 'notice' + (kind ? ' is-' + kind : '');
  }

  function showOnly(id) {
    ['invalid', 'form-section', 'done'].forEach(function (s) { $(s).hidden = s !== id; });
  }

  function invalid(message) {
    token = null;
    showOnly('invalid');
    announce(message || 'This link cannot be used.', 'error');
  }

  async function check() {
    if (!token) {
      showOnly('invalid');
      announce('This page needs the link from your email: open it from there.', 'error');
      return;
    }
    var res = await call('POST', '/auth/setup-token', { token: token });
    if (!res.ok) {
      if (res.status === 400) return invalid();
      announce(res.status === 429 ? 'Too many attempts: wait a minute, then open the link again.' : describeError(res), 'error');
      return;
    }
    if (!res.body || !res.body.isValid) return invalid();
    info = res.body;
    $('who-email').textContent = info.email;
    document.querySelector('#set-password input[name="username"]').value = info.email;
    $('who-name').textContent = info.fullName;
    $('who-company').textContent = info.companyName;
    var expires = $('expires');
    expires.dateTime = info.expiresAt;
    expires.textContent = new Date(info.expiresAt).toLocaleString();
    showOnly('form-section');
    announce('');
    $('password').focus();
  }

  async function onSubmit(ev) {
    ev.preventDefault();
    var form = ev.target;
    var password = $('password').value;
    var confirm = $('confirm').value;
    var error = $('form-error');
    error.textContent = '';
    if (password.length < MIN || password.length > MAX) {
      error.textContent = 'The password needs at least ' + MIN + ' and at most ' + MAX + ' characters.';
      $('password').focus();
      return;
    }
    if (password !== confirm) {
      error.textContent = 'The two passwords differ.';
      $('confirm').focus();
      return;
    }
    busy(form, true);
    var res = await call('POST', '/auth/set-password', { token: token, password: password });
    if (!res.ok) {
      busy(form, false);
      if (res.status === 400 && res.body && res.body.errors && res.body.errors.token) return invalid();
      error.textContent = describeError(res);
      return;
    }
    token = null; // spent
    $('password').value = '';
    $('confirm').value = '';
    // Show that the new password works: a fresh sign-in with it, then who that is.
    var login = await call('POST', '/auth/login', { email: info.email, password: password });
    var me = login.ok ? await call('GET', '/auth/me', undefined, login.body.accessToken) : login;
    showOnly('done');
    if (me.ok) {
      $('signed-in').textContent = 'Signed in as ' + me.body.email + '.';
      announce('Your password is set. Signed in as ' + me.body.email + '.', 'ok');
    } else {
      $('signed-in').textContent = 'The password is set, but signing in with it failed: ' + describeError(me);
      announce('Your password is set.', 'ok');
    }
    $('done-title').tabIndex = -1;
    $('done-title').focus();
  }

  function busy(form, on) {
    Array.prototype.forEach.call(form.querySelectorAll('button'), function (b) { b.disabled = on; });
    form.setAttribute('aria-busy', on ? 'true' : 'false');
  }

  document.addEventListener('DOMContentLoaded', function () {
    $('set-password').addEventListener('submit', onSubmit);
    check();
  });
})();

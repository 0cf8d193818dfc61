// The set-password page: reads the setup token from the address once (and drops it from
// the address bar and the history entry at once), asks the push API who it is for, sets
// the password, then signs in with it to show that it works (docs/trial-onboarding.md).
import { $, announce, setBusy } from './dom.js';
import { describeError, request } from './http.js';

const MIN = 8; // the password rule of the push API's accounts (api/push/auth/schema.ts)
const MAX = 256;

// Read before anything else of this page runs (its imports only define functions), then
// forgotten by the address bar: the token lives on only in this module.
let token = new URLSearchParams(window.location.search).get('token');
if (window.location.search) window.history.replaceState(null, '', window.location.pathname);

let info = null;

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
  const res = await request('POST', '/auth/setup-token', { token: token });
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
  const expires = $('expires');
  expires.dateTime = info.expiresAt;
  expires.textContent = new Date(info.expiresAt).toLocaleString();
  showOnly('form-section');
  announce('');
  $('password').focus();
}

async function onSubmit(ev) {
  ev.preventDefault();
  const form = ev.target;
  const password = $('password').value;
  const confirm = $('confirm').value;
  const error = $('form-error');
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
  setBusy(form, true);
  const res = await request('POST', '/auth/set-password', { token: token, password: password });
  if (!res.ok) {
    setBusy(form, false);
    if (res.status === 400 && res.body && res.body.errors && res.body.errors.token) return invalid();
    error.textContent = describeError(res);
    return;
  }
  token = null; // spent
  $('password').value = '';
  $('confirm').value = '';
  // Show that the new password works: a fresh sign-in with it, then who that is.
  const login = await request('POST', '/auth/login', { email: info.email, password: password });
  const me = login.ok ? await request('GET', '/auth/me', undefined, login.body.accessToken) : login;
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

// a module runs once the document is parsed
$('set-password').addEventListener('submit', onSubmit);
check();

// The sign-in page (/settings): choose the workspace's API, paste an admin credential,
// and go to that workspace's page. The credential is sent once, to POST /settings/session
// (session.js), and kept nowhere: the field is emptied as soon as the answer is in.
import { $, announce, setBusy } from '../../assets/dom.js';
import { loadSession, signIn } from '../../assets/session.js';
import { errorText } from './ui.js';

const PAGES = { ticketing: '/settings/ticketing', platform: '/settings/platform' };

/** Why the visitor is back here (set by page.js), said once and dropped from the address. */
function arrivalNote() {
  const q = new URLSearchParams(location.search);
  if (q.has('expired')) announce('Your session ended. Sign in again.', 'error');
  else if (q.has('signed-out')) announce('Signed out.', 'ok');
  if (location.search) history.replaceState(null, '', '/settings');
}

async function onSubmit(ev) {
  ev.preventDefault();
  const form = ev.target;
  const input = $('credential');
  const api = form.querySelector('input[name="api"]:checked').value;
  const credential = input.value.trim();
  $('sign-in-error').textContent = '';
  if (!credential) {
    $('sign-in-error').textContent = 'Paste the admin credential.';
    input.focus();
    return;
  }
  setBusy(form, true);
  const res = await signIn({ api: api, credential: credential });
  if (res.ok) {
    input.value = '';
    announce('Signed in. Opening the workspace…', 'ok');
    location.assign(PAGES[api]);
    return;
  }
  setBusy(form, false);
  $('sign-in-error').textContent =
    res.status === 403 ? errorText(res) + ' Sign in with an admin credential.' : errorText(res);
  input.select();
  input.focus();
}

async function main() {
  const session = await loadSession();
  if (session && PAGES[session.api]) {
    location.replace(PAGES[session.api]);
    return;
  }
  arrivalNote();
  $('sign-in-section').hidden = false;
  $('sign-in').addEventListener('submit', onSubmit);
}

main();

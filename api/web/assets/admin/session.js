// Signing in and out on the operator page: the sign-in form (POST /settings/session with
// the push account), and the way back to it, by choice or because the session ended or
// is not a super-admin's.
import { $, announce, setBusy } from '../../assets/dom.js';
import { describeError } from '../../assets/http.js';
import { forgetSession, sessionEmail, signIn } from './api.js';
import { loadList, resetList } from './table.js';

export function showSignedIn() {
  $('sign-in-section').hidden = true;
  $('requests-section').hidden = false;
  $('session').hidden = false;
  $('session-email').textContent = sessionEmail();
}

/** Back to the sign-in form; `reason` (why the session ended) is shown there. */
export function signOut(reason) {
  forgetSession(); // the server's answer changes nothing here: the page is signed out either way
  resetList();
  $('requests-section').hidden = true;
  $('session').hidden = true;
  $('sign-in-section').hidden = false;
  $('sign-in-error').textContent = reason || '';
  announce(reason ? '' : 'Signed out.');
  $('sign-in-email').focus();
}

export async function onSignIn(ev) {
  ev.preventDefault();
  const form = ev.target;
  const email = $('sign-in-email').value.trim();
  const password = $('sign-in-password').value;
  $('sign-in-error').textContent = '';
  if (!email || !password) {
    $('sign-in-error').textContent = 'Enter the email and the password.';
    return;
  }
  setBusy(form, true);
  const res = await signIn(email, password);
  setBusy(form, false);
  if (!res.ok) {
    $('sign-in-error').textContent = res.status === 401 ? 'Wrong email or password.' : describeError(res, true);
    return;
  }
  $('sign-in-password').value = '';
  showSignedIn();
  // the list call is also the super-admin check (403 for anyone else)
  if (await loadList()) announce('Signed in as ' + sessionEmail() + '.', 'ok');
}

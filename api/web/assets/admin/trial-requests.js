// The operator page of trial requests: sign in as a super-admin, list the requests, and
// approve, reject, resend, generate a link or extend a trial through the push API
// (/api/v1, docs/trial-onboarding.md). No framework, no build step: plain DOM in ES
// modules (api.js: calls through the settings session; session.js: sign-in/out; table.js: the list;
// actions.js: the per-row forms). A module runs once the document is parsed.
import { $ } from '../../assets/dom.js';
import { restoreSession, whenSessionLost } from './api.js';
import { onSignIn, showSignedIn, signOut } from './session.js';
import { loadList, reload, showStatus, turnPage } from './table.js';

whenSessionLost(signOut);
$('sign-in').addEventListener('submit', onSignIn);
$('sign-out').addEventListener('click', () => signOut(''));
$('filter').addEventListener('submit', (ev) => {
  ev.preventDefault();
  showStatus($('status-filter').value);
});
$('refresh').addEventListener('click', reload);
$('prev-page').addEventListener('click', () => turnPage(-1));
$('next-page').addEventListener('click', () => turnPage(1));
// no focus moved on load: the first Tab reaches the email field, and a screen reader
// starts at the top of the page. A reload keeps the session (its cookie).
restoreSession().then((session) => {
  if (!session) return;
  showSignedIn();
  loadList();
});

// The frame of a signed-in settings page: the session (else back to the sign-in page),
// the header's "Signed in with …" and Sign out, and the way back when the session ends.
import { $ } from '../../assets/dom.js';
import { loadSession, onSessionLost, signOut } from '../../assets/session.js';

/**
 * The session of `apiName` ('ticketing' or 'platform'), or null after sending the browser
 * to the sign-in page (no session, or one of the other API: the sign-in page sends it on).
 */
export async function startPage(apiName) {
  const session = await loadSession();
  if (!session || session.api !== apiName) {
    location.replace('/settings');
    return null;
  }
  $('session-label').textContent = session.label;
  $('session-env').textContent = session.environment || '';
  $('session-line').hidden = false;
  $('sign-out').addEventListener('click', async () => {
    $('sign-out').disabled = true;
    await signOut();
    location.assign('/settings?signed-out');
  });
  // a 401 from any call: the session expired or its credential was revoked
  onSessionLost(() => location.replace('/settings?expired'));
  return session;
}

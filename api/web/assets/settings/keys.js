// The ticketing workspace's API keys: the list (prefix, scopes, last use; never a secret),
// create (the secret shown once) and revoke after a confirmation, all through
// /v1/organizations/{id}/api-keys, the same routes as any client (scope admin:all).
import { $, announce, el, setBusy, when } from '../../assets/dom.js';
import { api } from '../../assets/session.js';
import { badge, cell, checkedValues, confirmAction, errorText, fillChecks, showSecretOnce } from './ui.js';

// the ticketing API's scopes (api/ticketing/access.ts)
const SCOPES = ['tickets:read', 'tickets:write', 'players:read', 'players:write', 'analytics:read', 'webhooks:manage', 'admin:all'];
const DEFAULT_SCOPES = ['tickets:read', 'tickets:write'];

let session = null;
const keysPath = () => '/v1/organizations/' + encodeURIComponent(session.organizationId) + '/api-keys';

/** A button whose accessible name says which key it acts on ("Revoke CI key"). */
const actionButton = (text, name, cls, onclick) =>
  el('button', { type: 'button', class: cls, onclick: onclick }, [text, el('span', { class: 'visually-hidden', text: ' ' + name })]);

function keyRow(k) {
  const revoked = !!k.revokedAt;
  const tr = el('tr', { 'data-id': k.id, 'data-prefix': k.prefix });
  tr.append(
    cell(k.name, 'text'),
    cell(el('code', { text: k.prefix + '…' })),
    cell(k.scopes.join(', '), 'text'),
    cell(k.environment + (k.type === 'sdk' ? ' (sdk)' : '')),
    cell(k.lastUsedAt ? when(k.lastUsedAt) : 'never'),
    cell(when(k.createdAt)),
    cell(revoked ? el('span', {}, [badge('Revoked', 'off'), el('span', { class: 'when', text: when(k.revokedAt) })]) : badge('Active')),
    cell(revoked ? null : actionButton('Revoke', k.name, 'secondary danger', () => revoke(k))),
  );
  return tr;
}

export async function loadKeys() {
  const res = await api('GET', keysPath());
  if (!res.ok) {
    announce('The API keys could not be loaded: ' + errorText(res), 'error');
    return;
  }
  const keys = res.body.data;
  $('keys').querySelector('tbody').replaceChildren.apply($('keys').querySelector('tbody'), keys.map(keyRow));
  $('keys-empty').hidden = keys.length > 0;
  $('keys').hidden = keys.length === 0;
}

async function revoke(k) {
  const sure = await confirmAction({
    title: 'Revoke the key “' + k.name + '”?',
    text: 'Every request with ' + k.prefix + '… is refused from now on, at once and for good. ' +
      'If you signed in with this key, your session ends too.',
    confirmText: 'Revoke key',
  });
  if (!sure) return;
  const res = await api('DELETE', keysPath() + '/' + encodeURIComponent(k.id));
  if (!res.ok) {
    announce('The key was not revoked: ' + errorText(res), 'error');
    return;
  }
  announce('Revoked the key “' + k.name + '”.', 'ok');
  await loadKeys();
  $('keys-title').focus();
}

function resetForm() {
  $('create-key').reset();
  $('key-environment').value = session.environment || 'test';
  fillChecks($('key-scopes'), 'key-scope', SCOPES, DEFAULT_SCOPES);
}

async function onCreate(ev) {
  ev.preventDefault();
  const form = ev.target;
  const error = $('create-key-error');
  const name = $('key-name').value.trim();
  const scopes = checkedValues($('key-scopes'));
  error.textContent = '';
  if (!name) {
    error.textContent = 'Enter a name for the key.';
    $('key-name').focus();
    return;
  }
  if (!scopes.length) {
    error.textContent = 'Choose at least one scope.';
    return;
  }
  setBusy(form, true);
  const res = await api('POST', keysPath(), { name: name, type: 'server', scopes: scopes, environment: $('key-environment').value });
  setBusy(form, false);
  if (!res.ok) {
    error.textContent = errorText(res);
    return;
  }
  resetForm();
  $('new-key').open = false;
  announce('Created the key “' + res.body.name + '”.', 'ok');
  showSecretOnce($('keys-secret'), {
    id: 'new-key-secret',
    title: 'Your new key “' + res.body.name + '”',
    label: 'Secret key',
    secret: res.body.key,
    onDone: () => $('keys-title').focus(),
  });
  await loadKeys();
}

export function initKeys(s) {
  session = s;
  resetForm();
  $('create-key').addEventListener('submit', onCreate);
  $('keys-section').hidden = false;
  return loadKeys();
}

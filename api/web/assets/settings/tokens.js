// The platform workspace's tokens: the list (name, environment, creator, expiry, last
// use; never a secret), create with 30, 60 or 90 days or no expiry (the secret shown
// once) and revoke after a confirmation, through /platform/v1/auth/tokens.
import { $, announce, el, setBusy, when } from '../../assets/dom.js';
import { api } from '../../assets/session.js';
import { badge, cell, confirmAction, errorText, showSecretOnce } from './ui.js';

const STATES = { active: ['Active', null], expired: ['Expired', 'off'], revoked: ['Revoked', 'off'] };
let session = null;
let people = {};

/** Who created each token: the workspace's users by id (an agent's token list shows only their own). */
async function loadPeople() {
  const res = await api('GET', '/platform/v1/users?per_page=100');
  people = {};
  if (res.ok) res.body.data.forEach((u) => { people[u.id] = u.name ? u.name + ' (' + u.email + ')' : u.email; });
}

function tokenRow(t) {
  const tr = el('tr', { 'data-id': t.id, 'data-prefix': t.prefix });
  const revoke = el('button', { type: 'button', class: 'secondary danger', onclick: () => revokeToken(t) },
    ['Revoke', el('span', { class: 'visually-hidden', text: ' ' + t.name })]);
  tr.append(
    cell(t.name, 'text'),
    cell(t.environment),
    cell(el('code', { text: t.prefix + '…' })),
    cell(people[t.created_by] || t.created_by, 'text'),
    cell(t.expires_at ? when(t.expires_at) : 'never'),
    cell(t.last_used_at ? when(t.last_used_at) : 'never'),
    cell(el('span', {}, [badge(STATES[t.status][0], STATES[t.status][1]), t.revoked_at ? el('span', { class: 'when', text: when(t.revoked_at) }) : null])),
    cell(t.status === 'active' ? revoke : null),
  );
  return tr;
}

export async function loadTokens() {
  const res = await api('GET', '/platform/v1/auth/tokens?per_page=100');
  if (!res.ok) {
    announce('The tokens could not be loaded: ' + errorText(res), 'error');
    return;
  }
  const tokens = res.body.data;
  const tbody = $('tokens').querySelector('tbody');
  tbody.replaceChildren.apply(tbody, tokens.map(tokenRow));
  $('tokens-empty').hidden = tokens.length > 0;
  $('tokens').hidden = tokens.length === 0;
}

async function revokeToken(t) {
  const sure = await confirmAction({
    title: 'Revoke the token “' + t.name + '”?',
    text: 'Requests with ' + t.prefix + '… are refused from the next one on, for good. ' +
      'If you signed in with this token, your session ends too.',
    confirmText: 'Revoke token',
  });
  if (!sure) return;
  const res = await api('DELETE', '/platform/v1/auth/tokens/' + encodeURIComponent(t.id));
  if (!res.ok) {
    announce('The token was not revoked: ' + errorText(res), 'error');
    return;
  }
  announce('Revoked the token “' + t.name + '”.', 'ok');
  await loadTokens();
  $('tokens-title').focus();
}

function resetForm() {
  $('create-token').reset();
  $('token-environment').value = session.environment || 'test';
}

async function onCreate(ev) {
  ev.preventDefault();
  const form = ev.target;
  const error = $('create-token-error');
  const name = $('token-name').value.trim();
  error.textContent = '';
  if (!name) {
    error.textContent = 'Enter a name for the token.';
    $('token-name').focus();
    return;
  }
  const days = $('token-expiry').value;
  setBusy(form, true);
  const res = await api('POST', '/platform/v1/auth/tokens', {
    name: name,
    workspace_id: session.workspaceId,
    environment: $('token-environment').value,
    expires_in_days: days ? Number(days) : null,
  });
  setBusy(form, false);
  if (!res.ok) {
    error.textContent = errorText(res);
    return;
  }
  resetForm();
  $('new-token').open = false;
  announce('Created the token “' + res.body.name + '”' + (res.body.expires_at ? ', valid until ' + when(res.body.expires_at) : ', without expiry') + '.', 'ok');
  showSecretOnce($('tokens-secret'), {
    id: 'new-token-secret',
    title: 'Your new token “' + res.body.name + '”',
    label: 'Token',
    secret: res.body.token,
    onDone: () => $('tokens-title').focus(),
  });
  await loadTokens();
}

export async function initTokens(s) {
  session = s;
  resetForm();
  $('create-token').addEventListener('submit', onCreate);
  $('tokens-section').hidden = false;
  await loadPeople();
  return loadTokens();
}

// The table of trial requests: one page of the list (status filter, paging), its rows,
// the one open action form, and the reloads while a setup email is on its way.
import { $, announce, el, when } from '../../assets/dom.js';
import { describeError } from '../../assets/http.js';
import { actionRow } from './actions.js';
import { authProblem, call, signedIn } from './api.js';

const PAGE_SIZE = 20;
// while an approved request waits for its setup email, the list reloads this often
const POLL_MS = 2000;
const MAX_POLLS = 90; // three minutes; then the Refresh button

const state = { status: '', page: 1, totalPages: 1, items: [] };
let openAction = null; // {id, kind}: one action form at a time
let pollTimer = null;
let polls = 0;
const resent = {}; // request id → the attempt count before a resend: reload until it grows

/** Loads the current page and shows it (`opts.quiet`: not over an open form); true if it did. */
export async function loadList(opts) {
  opts = opts || {};
  const q = '?page=' + state.page + '&pageSize=' + PAGE_SIZE + (state.status ? '&status=' + encodeURIComponent(state.status) : '');
  const res = await call('GET', '/admin/trial-requests' + q);
  if (authProblem(res)) return false;
  if (!res.ok) {
    $('list-error').textContent = describeError(res, true);
    return false;
  }
  $('list-error').textContent = '';
  state.items = res.body.items || [];
  state.totalPages = Math.max(1, res.body.totalPages || 1);
  if (!opts.quiet || !openAction) renderList();
  schedulePoll();
  return true;
}

/** Signed out: no timer, no open form. */
export function resetList() {
  stopPolling();
  openAction = null;
}

/** The filter, paging and Refresh: a reload that closes any open form. */
export function showStatus(status) {
  state.status = status;
  state.page = 1;
  reload();
}

export function turnPage(delta) {
  const page = state.page + delta;
  if (page < 1 || page > state.totalPages) return;
  state.page = page;
  reload();
}

export function reload() {
  openAction = null;
  loadList();
}

function renderList() {
  const tbody = document.querySelector('#requests tbody');
  tbody.textContent = '';
  if (!state.items.length) {
    tbody.appendChild(el('tr', {}, [el('td', { colspan: 9, text: 'No requests' + (state.status ? ' with status ' + state.status : '') + '.' })]));
  }
  state.items.forEach((r) => {
    tbody.appendChild(row(r));
    if (openAction && openAction.id === r.id) tbody.appendChild(actionRow(r, openAction.kind, actionHooks(r, openAction.kind)));
  });
  if (openAction && !state.items.some((r) => r.id === openAction.id)) openAction = null;
  $('page-info').textContent = 'Page ' + state.page + ' of ' + state.totalPages;
  $('prev-page').disabled = state.page <= 1;
  $('next-page').disabled = state.page >= state.totalPages;
}

/** What an action form may do to the list (actions.js knows nothing of it otherwise). */
function actionHooks(r, kind) {
  return {
    cancel: () => toggleAction(r.id, kind),
    close: closeAction,
    stopPolling: stopPolling,
    // after an approval or a resend: reload until the email has gone (or its attempts grew)
    awaitEmail: (attemptsBefore) => {
      if (attemptsBefore !== undefined) resent[r.id] = attemptsBefore;
      polls = 0;
    },
  };
}

function setupEmailCell(r) {
  const s = r.setupEmail || {};
  const pairs = [
    ['State', s.state || 'none'],
    ['Attempts', String(s.attempts || 0)],
    ['Provider', s.provider || '—'],
    ['Last attempt', when(s.lastAttemptAt)],
    ['Last error', s.lastError || '—'],
    ['Last link generated', when(s.lastLinkGeneratedAt)],
  ];
  if (r.passwordSetAt) pairs.push(['Password set', when(r.passwordSetAt)]);
  const dl = el('dl');
  pairs.forEach((p) => {
    dl.appendChild(el('dt', { text: p[0] }));
    dl.appendChild(el('dd', { text: p[1] }));
  });
  return el('td', { class: 'setup-email', 'data-field': 'setup-email', 'data-state': s.state || 'none' }, [dl]);
}

/**
 * An address as text with break opportunities (<wbr>) after its '@' and dots: a narrow
 * column wraps it there rather than mid-word, and its text (copy, textContent) is unchanged.
 */
function breakable(address) {
  return address.split(/(?<=[@.])/).flatMap((part, i) => (i ? [el('wbr'), part] : [part]));
}

function row(r) {
  const label = r.companyName + ' (' + r.email + ')';
  const actions = [];
  const button = (kind, text) =>
    el('button', {
      type: 'button',
      class: 'secondary',
      'data-action': kind,
      'aria-label': text + ': ' + label,
      text: text,
      onclick: () => toggleAction(r.id, kind),
    });
  if (r.status === 'Submitted') {
    actions.push(button('approve', 'Approve'), button('reject', 'Reject'));
  } else if (r.status === 'Approved') {
    if (!r.passwordSetAt) actions.push(button('resend', 'Resend setup email'), button('link', 'Generate link'));
    if (r.companyStatus === 'trial' || r.companyStatus === 'trial_expired') actions.push(button('extend', 'Extend trial'));
  }
  const trial = r.trialEndsAt ? when(r.trialEndsAt) : '—';
  return el('tr', { 'data-id': r.id, 'data-status': r.status }, [
    el('td', { text: when(r.createdAt) }),
    el('td', { text: r.companyName }),
    el('td', { text: r.fullName }),
    el('td', {}, breakable(r.email)),
    el('td', { text: r.requestedPlanSlug + (r.planSlug && r.planSlug !== r.requestedPlanSlug ? ' (approved: ' + r.planSlug + ')' : '') }),
    el('td', { 'data-field': 'status', text: r.status + (r.adminNotes ? ' — ' + r.adminNotes : '') }),
    setupEmailCell(r),
    el('td', { 'data-field': 'trial', text: trial + ' / ' + (r.companyStatus || '—') }),
    el('td', { class: 'actions' }, actions.length ? actions : ['—']),
  ]);
}

function toggleAction(id, kind) {
  openAction = openAction && openAction.id === id && openAction.kind === kind ? null : { id: id, kind: kind };
  renderList();
  if (openAction) {
    const first = document.querySelector('tr.action-row input, tr.action-row textarea, tr.action-row button');
    if (first) first.focus();
  } else {
    schedulePoll();
  }
}

function closeAction(message) {
  openAction = null;
  if (message) announce(message, 'ok');
  return loadList();
}

// ---- reloads while setup emails are on their way -------------------------------

function waitingForEmail() {
  return state.items.some((r) => {
    if (r.status !== 'Approved' || r.passwordSetAt) return false;
    const attempts = (r.setupEmail && r.setupEmail.attempts) || 0;
    if (r.id in resent) {
      if (attempts > resent[r.id]) delete resent[r.id];
      else return true;
    }
    return !r.setupEmail || r.setupEmail.state === 'none';
  });
}

function stopPolling() {
  if (pollTimer) clearTimeout(pollTimer);
  pollTimer = null;
}

function schedulePoll() {
  stopPolling();
  if (!signedIn() || openAction || !waitingForEmail()) {
    polls = 0;
    return;
  }
  if (++polls > MAX_POLLS) return;
  pollTimer = setTimeout(() => {
    pollTimer = null;
    if (!openAction) loadList({ quiet: true });
  }, POLL_MS);
}

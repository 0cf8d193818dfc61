// The operator page of trial requests: sign in as a super-admin, list the requests, and
// approve, reject, resend, generate a link or extend a trial through the push API
// (/api/v1, docs/trial-onboarding.md). No framework, no build step: plain DOM.
'use strict';

(function () {
  var API = '/api/v1';
  var SESSION_KEY = 'trial-admin-session';
  var PAGE_SIZE = 20;
  // while an approved request waits for its setup email, the list reloads this often
  var POLL_MS = 2000;

  var session = loadSession(); // {accessToken, email} in sessionStorage: gone with the tab
  var refreshToken = null; // memory only: a reload asks for the password again after 15 min
  var state = { status: '', page: 1, totalPages: 1, items: [] };
  var openAction = null; // {id, kind}: one action form at a time
  var pollTimer = null;
  var polls = 0;
  var MAX_POLLS = 90; // three minutes; then the Refresh button
  var resent = {}; // request id → the attempt count before a resend: reload until it grows

  var $ = function (id) { return document.getElementById(id); };

  // ---- helpers -------------------------------------------------------------------

  function loadSession() {
    try {
      var raw = sessionStorage.getItem(SESSION_KEY);
      return raw ? JSON.parse(raw) : null;
    } catch (e) {
      return null;
    }
  }

  function saveSession(s) {
    session = s;
    try {
      if (s) sessionStorage.setItem(SESSION_KEY, JSON.stringify(s));
      else sessionStorage.removeItem(SESSION_KEY);
    } catch (e) {
      /* private mode: memory only */
    }
  }

  // crypto.randomUUID exists only in secure contexts (https, localhost)
  function uuid() {
    if (window.crypto && typeof window.crypto.randomUUID === 'function') return window.crypto.randomUUID();
    var b = new Uint8Array(16);
    window.crypto.getRandomValues(b);
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    var h = Array.prototype.map.call(b, function (x) { return (x + 256).toString(16).slice(1); }).join('');
    return h.slice(0, 8) + '-' + h.slice(8, 12) + '-' + h.slice(12, 16) + '-' + h.slice(16, 20) + '-' + h.slice(20);
  }

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    if (attrs) {
      Object.keys(attrs).forEach(function (k) {
        var v = attrs[k];
        if (v === undefined || v === null || v === false) return;
        if (k === 'text') node.textContent = v;
        else if (k === 'onclick') node.addEventListener('click', v);
        else if (k === 'onsubmit') node.addEventListener('submit', v);
        else node.setAttribute(k, v === true ? '' : String(v));
      });
    }
    (children || []).forEach(function (c) {
      if (c === null || c === undefined) return;
      node.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    });
    return node;
  }

  function when(iso) {
    if (!iso) return '—';
    var d = new Date(iso);
    return isNaN(d.getTime()) ? String(iso) : d.toLocaleString();
  }

  function announce(text, kind) {
    var s = $('status');
    s.textContent = text || '';
    s.className = 'notice' + (kind ? ' is-' + kind : '');
  }

  /** The push envelope `{message, code, errors?}` as one line of text. */
  function describeError(res) {
    var b = res.body || {};
    var text = (b.message || 'The request failed (' + res.status + ').') + (b.code ? ' [' + b.code + ']' : '');
    if (b.errors && typeof b.errors === 'object') {
      var parts = Object.keys(b.errors).map(function (field) {
        var msgs = b.errors[field];
        return field + ': ' + (Array.isArray(msgs) ? msgs.join(', ') : String(msgs));
      });
      if (parts.length) text += ' — ' + parts.join('; ');
    }
    return text;
  }

  async function call(method, path, body, opts) {
    opts = opts || {};
    var headers = { Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    if (method === 'POST') headers['Idempotency-Key'] = uuid();
    if (opts.auth !== false && session) headers.Authorization = 'Bearer ' + session.accessToken;
    var res;
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
    var parsed = null;
    try {
      parsed = await res.json();
    } catch (e) {
      parsed = null;
    }
    // an expired access token: one refresh, then the call once more
    if (res.status === 401 && opts.auth !== false && refreshToken && !opts.retried) {
      var refreshed = await call('POST', '/auth/refresh', { refreshToken: refreshToken }, { auth: false });
      refreshToken = null;
      if (refreshed.ok) {
        adoptAuthResult(refreshed.body, session && session.email);
        return call(method, path, body, Object.assign({}, opts, { retried: true }));
      }
    }
    return { ok: res.ok, status: res.status, body: parsed };
  }

  function adoptAuthResult(result, email) {
    refreshToken = result.refreshToken || null;
    saveSession({ accessToken: result.accessToken, email: (result.user && result.user.email) || email });
  }

  /** A 401 or 403 on an admin call: back to the sign-in form with the reason. */
  function authProblem(res) {
    if (res.status === 401) {
      signOut('Your session has ended. Sign in again.');
      return true;
    }
    if (res.status === 403) {
      signOut('This account is not a super-admin. Sign in with a super-admin account.');
      return true;
    }
    return false;
  }

  // ---- sign in / out -------------------------------------------------------------

  function showSignedIn() {
    $('sign-in-section').hidden = true;
    $('requests-section').hidden = false;
    $('session').hidden = false;
    $('session-email').textContent = session.email || '';
  }

  function signOut(reason) {
    saveSession(null);
    refreshToken = null;
    stopPolling();
    openAction = null;
    $('requests-section').hidden = true;
    $('session').hidden = true;
    $('sign-in-section').hidden = false;
    $('sign-in-error').textContent = reason || '';
    announce(reason ? '' : 'Signed out.');
    $('sign-in-email').focus();
  }

  async function onSignIn(ev) {
    ev.preventDefault();
    var form = ev.target;
    var email = $('sign-in-email').value.trim();
    var password = $('sign-in-password').value;
    $('sign-in-error').textContent = '';
    if (!email || !password) {
      $('sign-in-error').textContent = 'Enter the email and the password.';
      return;
    }
    setBusy(form, true);
    var res = await call('POST', '/auth/login', { email: email, password: password }, { auth: false });
    setBusy(form, false);
    if (!res.ok) {
      $('sign-in-error').textContent = res.status === 401 ? 'Wrong email or password.' : describeError(res);
      return;
    }
    adoptAuthResult(res.body, email);
    $('sign-in-password').value = '';
    showSignedIn();
    // the list call is also the super-admin check (403 for anyone else)
    if (await loadList()) announce('Signed in as ' + session.email + '.', 'ok');
  }

  function setBusy(form, busy) {
    Array.prototype.forEach.call(form.querySelectorAll('button'), function (b) { b.disabled = busy; });
    form.setAttribute('aria-busy', busy ? 'true' : 'false');
  }

  // ---- the list ------------------------------------------------------------------

  async function loadList(opts) {
    opts = opts || {};
    var q = '?page=' + state.page + '&pageSize=' + PAGE_SIZE + (state.status ? '&status=' + encodeURIComponent(state.status) : '');
    var res = await call('GET', '/admin/trial-requests' + q);
    if (authProblem(res)) return false;
    if (!res.ok) {
      $('list-error').textContent = describeError(res);
      return false;
    }
    $('list-error').textContent = '';
    state.items = res.body.items || [];
    state.totalPages = Math.max(1, res.body.totalPages || 1);
    if (!opts.quiet || !openAction) renderList();
    schedulePoll();
    return true;
  }

  function renderList() {
    var tbody = document.querySelector('#requests tbody');
    tbody.textContent = '';
    if (!state.items.length) {
      tbody.appendChild(el('tr', {}, [el('td', { colspan: 9, text: 'No requests' + (state.status ? ' with status ' + state.status : '') + '.' })]));
    }
    state.items.forEach(function (r) {
      tbody.appendChild(row(r));
      if (openAction && openAction.id === r.id) tbody.appendChild(actionRow(r, openAction.kind));
    });
    if (openAction && !state.items.some(function (r) { return r.id === openAction.id; })) openAction = null;
    $('page-info').textContent = 'Page ' + state.page + ' of ' + state.totalPages;
    $('prev-page').disabled = state.page <= 1;
    $('next-page').disabled = state.page >= state.totalPages;
  }

  function setupEmailCell(r) {
    var s = r.setupEmail || {};
    var pairs = [
      ['State', s.state || 'none'],
      ['Attempts', String(s.attempts || 0)],
      ['Provider', s.provider || '—'],
      ['Last attempt', when(s.lastAttemptAt)],
      ['Last error', s.lastError || '—'],
      ['Last link generated', when(s.lastLinkGeneratedAt)],
    ];
    if (r.passwordSetAt) pairs.push(['Password set', when(r.passwordSetAt)]);
    var dl = el('dl');
    pairs.forEach(function (p) {
      dl.appendChild(el('dt', { text: p[0] }));
      dl.appendChild(el('dd', { text: p[1] }));
    });
    return el('td', { class: 'setup-email', 'data-field': 'setup-email', 'data-state': s.state || 'none' }, [dl]);
  }

  function row(r) {
    var label = r.companyName + ' (' + r.email + ')';
    var actions = [];
    var button = function (kind, text) {
      return el('button', {
        type: 'button',
        class: 'secondary',
        'data-action': kind,
        'aria-label': text + ': ' + label,
        text: text,
        onclick: function () { toggleAction(r.id, kind); },
      });
    };
    if (r.status === 'Submitted') {
      actions.push(button('approve', 'Approve'), button('reject', 'Reject'));
    } else if (r.status === 'Approved') {
      if (!r.passwordSetAt) actions.push(button('resend', 'Resend setup email'), button('link', 'Generate link'));
      if (r.companyStatus === 'trial' || r.companyStatus === 'trial_expired') actions.push(button('extend', 'Extend trial'));
    }
    var trial = r.trialEndsAt ? when(r.trialEndsAt) : '—';
    return el('tr', { 'data-id': r.id, 'data-status': r.status }, [
      el('td', { text: when(r.createdAt) }),
      el('td', { text: r.companyName }),
      el('td', { text: r.fullName }),
      el('td', { text: r.email }),
      el('td', { text: r.requestedPlanSlug + (r.planSlug && r.planSlug !== r.requestedPlanSlug ? ' (approved: ' + r.planSlug + ')' : '') }),
      el('td', { 'data-field': 'status', text: r.status + (r.adminNotes ? ' — ' + r.adminNotes : '') }),
      setupEmailCell(r),
      el('td', { 'data-field': 'trial', text: trial + ' / ' + (r.companyStatus || '—') }),
      el('td', { class: 'actions' }, actions.length ? actions : ['—']),
    ]);
  }

  // ---- the actions ---------------------------------------------------------------

  function toggleAction(id, kind) {
    openAction = openAction && openAction.id === id && openAction.kind === kind ? null : { id: id, kind: kind };
    renderList();
    if (openAction) {
      var first = document.querySelector('tr.action-row input, tr.action-row textarea, tr.action-row button');
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

  function field(id, labelText, input, hint) {
    input.id = id;
    var children = [el('label', { for: id, text: labelText }), input];
    if (hint) {
      input.setAttribute('aria-describedby', id + '-hint');
      children.push(el('p', { id: id + '-hint', class: 'hint', text: hint }));
    }
    return el('div', {}, children);
  }

  function actionRow(r, kind) {
    var error = el('p', { class: 'error', role: 'alert' });
    var cell = el('td', { colspan: 9 });
    var title = {
      approve: 'Approve the request of ' + r.companyName,
      reject: 'Reject the request of ' + r.companyName,
      resend: 'Resend the setup email to ' + r.email,
      link: 'Generate a setup link for ' + r.email,
      extend: 'Extend the trial of ' + r.companyName,
    }[kind];
    // novalidate: the script checks and says what is wrong in the form's alert, in words of its own
    var form = el('form', { class: 'inline', method: 'post', novalidate: true, 'aria-label': title });
    var cancel = el('button', { type: 'button', class: 'secondary', text: 'Cancel', onclick: function () { toggleAction(r.id, kind); } });
    var submitText;
    var read; // the JSON body from the form, or a string: the problem to show

    if (kind === 'approve') {
      var plan = el('input', { type: 'text', required: true, maxlength: 64, value: r.requestedPlanSlug || '' });
      var days = el('input', { type: 'number', required: true, min: 1, max: 90, step: 1, value: 14 });
      var notes = el('textarea', { maxlength: 2000 });
      form.append(field('approve-plan-' + r.id, 'Plan', plan), field('approve-days-' + r.id, 'Trial days', days, '1 to 90'), field('approve-notes-' + r.id, 'Notes (optional)', notes));
      submitText = 'Approve';
      read = function () {
        var n = Number(days.value);
        if (!plan.value.trim()) return 'Enter a plan.';
        if (!Number.isInteger(n) || n < 1 || n > 90) return 'Trial days must be a whole number from 1 to 90.';
        var body = { planSlug: plan.value.trim(), trialDays: n };
        if (notes.value.trim()) body.adminNotes = notes.value.trim();
        return body;
      };
    } else if (kind === 'reject') {
      var reason = el('textarea', { required: true, maxlength: 2000 });
      form.append(field('reject-notes-' + r.id, 'Reason (required)', reason, 'Kept with the request; not emailed.'));
      submitText = 'Reject';
      read = function () { return reason.value.trim() ? { adminNotes: reason.value.trim() } : 'Enter the reason for the rejection.'; };
    } else if (kind === 'resend') {
      form.append(el('p', { class: 'hint', text: 'A new link is emailed; the earlier links stop working.' }));
      submitText = 'Resend setup email';
      read = function () { return {}; };
    } else if (kind === 'link') {
      form.append(el('p', { class: 'hint', text: 'The new link replaces the emailed one and is shown here once: copy it and pass it on yourself.' }));
      submitText = 'Generate link';
      read = function () { return {}; };
    } else {
      var extra = el('input', { type: 'number', required: true, min: 1, max: 90, step: 1, value: 7 });
      form.append(field('extend-days-' + r.id, 'Days to add', extra, '1 to 90'));
      submitText = 'Extend';
      read = function () {
        var n = Number(extra.value);
        return Number.isInteger(n) && n >= 1 && n <= 90 ? { days: n } : 'Days must be a whole number from 1 to 90.';
      };
    }
    var submit = el('button', { type: 'submit', text: submitText });
    form.append(submit, cancel);

    var path = {
      approve: '/approve',
      reject: '/reject',
      resend: '/resend-setup',
      link: '/setup-link',
      extend: '/extend',
    }[kind];
    form.addEventListener('submit', async function (ev) {
      ev.preventDefault();
      error.textContent = '';
      var body = read();
      if (typeof body === 'string') {
        error.textContent = body;
        return;
      }
      setBusy(form, true);
      var res = await call('POST', '/admin/trial-requests/' + encodeURIComponent(r.id) + path, body);
      setBusy(form, false);
      if (authProblem(res)) return;
      if (!res.ok) {
        error.textContent = describeError(res);
        return;
      }
      if (kind === 'link') {
        showLinkOnce(cell, r, res.body);
        return;
      }
      if (kind === 'resend') resent[r.id] = (r.setupEmail && r.setupEmail.attempts) || 0;
      polls = 0;
      var done = {
        approve: 'Approved ' + r.companyName + '; the setup email goes out now.',
        reject: 'Rejected the request of ' + r.companyName + '.',
        resend: 'A new setup email to ' + r.email + ' goes out now.',
        extend: 'Extended the trial of ' + r.companyName + '.',
      }[kind];
      await closeAction(done);
    });
    cell.append(el('h3', { class: 'visually-hidden', text: title }), form, error);
    return el('tr', { class: 'action-row', 'data-action-for': r.id }, [cell]);
  }

  /** The generated link, once: after "Done" it exists nowhere on the page. */
  function showLinkOnce(cell, r, body) {
    stopPolling();
    var input = el('input', { type: 'text', readonly: true, value: body.setupUrl, 'data-field': 'setup-url' });
    var copied = el('span', { role: 'status', 'aria-live': 'polite' });
    var copy = el('button', {
      type: 'button',
      text: 'Copy',
      onclick: async function () {
        try {
          await navigator.clipboard.writeText(input.value);
          copied.textContent = 'Copied.';
        } catch (e) {
          // no clipboard permission (or plain http): select it for Ctrl+C
          input.focus();
          input.select();
          copied.textContent = 'Selected: press Ctrl+C (⌘C) to copy.';
        }
      },
    });
    var done = el('button', {
      type: 'button',
      class: 'secondary',
      text: 'Done',
      onclick: function () {
        input.value = '';
        closeAction('');
      },
    });
    cell.textContent = '';
    cell.append(
      field('setup-url-' + r.id, 'Setup link for ' + r.email, input),
      el('div', { class: 'link-once' }, [copy, done, copied]),
      el('p', {
        class: 'hint',
        text: 'This link will not be shown again. It is valid until ' + when(body.expiresAt) + ', once; earlier links no longer work.',
      }),
    );
    announce('A new setup link for ' + r.email + ' is shown below, once.', 'ok');
    input.focus();
    input.select();
  }

  // ---- polling while setup emails are on their way --------------------------------

  function waitingForEmail() {
    return state.items.some(function (r) {
      if (r.status !== 'Approved' || r.passwordSetAt) return false;
      var attempts = (r.setupEmail && r.setupEmail.attempts) || 0;
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
    if (!session || openAction || !waitingForEmail()) {
      polls = 0;
      return;
    }
    if (++polls > MAX_POLLS) return;
    pollTimer = setTimeout(function () {
      pollTimer = null;
      if (!openAction) loadList({ quiet: true });
    }, POLL_MS);
  }

  // ---- wiring --------------------------------------------------------------------

  document.addEventListener('DOMContentLoaded', function () {
    $('sign-in').addEventListener('submit', onSignIn);
    $('sign-out').addEventListener('click', function () { signOut(''); });
    $('filter').addEventListener('submit', function (ev) {
      ev.preventDefault();
      state.status = $('status-filter').value;
      state.page = 1;
      openAction = null;
      loadList();
    });
    $('refresh').addEventListener('click', function () {
      openAction = null;
      loadList();
    });
    $('prev-page').addEventListener('click', function () {
      if (state.page > 1) {
        state.page -= 1;
        openAction = null;
        loadList();
      }
    });
    $('next-page').addEventListener('click', function () {
      if (state.page < state.totalPages) {
        state.page += 1;
        openAction = null;
        loadList();
      }
    });
    // no focus moved on load: the first Tab reaches the email field, and a screen reader
    // starts at the top of the page
    if (session) {
      showSignedIn();
      loadList();
    }
  });
})();

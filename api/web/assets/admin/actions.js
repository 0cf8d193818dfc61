// The per-row action forms of the operator page: approve, reject, resend the setup
// email, generate a link (shown once) and extend a trial, each a small form under its
// row that posts to /admin/trial-requests/{id}/… and shows the API's refusal beside it.
import { announce, el, setBusy, when } from '../../assets/dom.js';
import { describeError } from '../../assets/http.js';
import { authProblem, call } from './api.js';

const TITLES = {
  approve: (r) => 'Approve the request of ' + r.companyName,
  reject: (r) => 'Reject the request of ' + r.companyName,
  resend: (r) => 'Resend the setup email to ' + r.email,
  link: (r) => 'Generate a setup link for ' + r.email,
  extend: (r) => 'Extend the trial of ' + r.companyName,
};

const PATHS = { approve: '/approve', reject: '/reject', resend: '/resend-setup', link: '/setup-link', extend: '/extend' };

const DONE = {
  approve: (r) => 'Approved ' + r.companyName + '; the setup email goes out now.',
  reject: (r) => 'Rejected the request of ' + r.companyName + '.',
  resend: (r) => 'A new setup email to ' + r.email + ' goes out now.',
  extend: (r) => 'Extended the trial of ' + r.companyName + '.',
};

function field(id, labelText, input, hint) {
  input.id = id;
  const children = [el('label', { for: id, text: labelText }), input];
  if (hint) {
    input.setAttribute('aria-describedby', id + '-hint');
    children.push(el('p', { id: id + '-hint', class: 'hint', text: hint }));
  }
  return el('div', {}, children);
}

/** A form without fields: what the action does, and its button. */
function confirmOnly(hint, submitText) {
  return () => ({ fields: [el('p', { class: 'hint', text: hint })], submitText: submitText, read: () => ({}) });
}

/**
 * The fields of each form and `read`: the JSON body from them, or a string, the problem
 * to show.
 */
const FORMS = {
  approve(r) {
    const plan = el('input', { type: 'text', required: true, maxlength: 64, value: r.requestedPlanSlug || '' });
    const days = el('input', { type: 'number', required: true, min: 1, max: 90, step: 1, value: 14 });
    const notes = el('textarea', { maxlength: 2000 });
    return {
      fields: [field('approve-plan-' + r.id, 'Plan', plan), field('approve-days-' + r.id, 'Trial days', days, '1 to 90'), field('approve-notes-' + r.id, 'Notes (optional)', notes)],
      submitText: 'Approve',
      read() {
        const n = Number(days.value);
        if (!plan.value.trim()) return 'Enter a plan.';
        if (!Number.isInteger(n) || n < 1 || n > 90) return 'Trial days must be a whole number from 1 to 90.';
        const body = { planSlug: plan.value.trim(), trialDays: n };
        if (notes.value.trim()) body.adminNotes = notes.value.trim();
        return body;
      },
    };
  },
  reject(r) {
    const reason = el('textarea', { required: true, maxlength: 2000 });
    return {
      fields: [field('reject-notes-' + r.id, 'Reason (required)', reason, 'Kept with the request; not emailed.')],
      submitText: 'Reject',
      read: () => (reason.value.trim() ? { adminNotes: reason.value.trim() } : 'Enter the reason for the rejection.'),
    };
  },
  resend: confirmOnly('A new link is emailed; the earlier links stop working.', 'Resend setup email'),
  link: confirmOnly('The new link replaces the emailed one and is shown here once: copy it and pass it on yourself.', 'Generate link'),
  extend(r) {
    const extra = el('input', { type: 'number', required: true, min: 1, max: 90, step: 1, value: 7 });
    return {
      fields: [field('extend-days-' + r.id, 'Days to add', extra, '1 to 90')],
      submitText: 'Extend',
      read() {
        const n = Number(extra.value);
        return Number.isInteger(n) && n >= 1 && n <= 90 ? { days: n } : 'Days must be a whole number from 1 to 90.';
      },
    };
  },
};

/**
 * The row under request `r` with the form of action `kind`. `hooks` are the list's:
 * cancel(), close(message) (closes the form and reloads), stopPolling(), and
 * awaitEmail(attemptsBefore?) (reload until the setup email has gone).
 */
export function actionRow(r, kind, hooks) {
  const error = el('p', { class: 'error', role: 'alert' });
  const cell = el('td', { colspan: 9 });
  const title = TITLES[kind](r);
  const spec = FORMS[kind](r);
  // novalidate: the script checks and says what is wrong in the form's alert, in words of its own
  const form = el('form', { class: 'inline', method: 'post', novalidate: true, 'aria-label': title });
  const cancel = el('button', { type: 'button', class: 'secondary', text: 'Cancel', onclick: hooks.cancel });
  form.append(...spec.fields, el('button', { type: 'submit', text: spec.submitText }), cancel);

  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    error.textContent = '';
    const body = spec.read();
    if (typeof body === 'string') {
      error.textContent = body;
      return;
    }
    setBusy(form, true);
    const res = await call('POST', '/admin/trial-requests/' + encodeURIComponent(r.id) + PATHS[kind], body);
    setBusy(form, false);
    if (authProblem(res)) return;
    if (!res.ok) {
      error.textContent = describeError(res, true);
      return;
    }
    if (kind === 'link') {
      showLinkOnce(cell, r, res.body, hooks);
      return;
    }
    hooks.awaitEmail(kind === 'resend' ? (r.setupEmail && r.setupEmail.attempts) || 0 : undefined);
    await hooks.close(DONE[kind](r));
  });
  cell.append(el('h3', { class: 'visually-hidden', text: title }), form, error);
  return el('tr', { class: 'action-row', 'data-action-for': r.id }, [cell]);
}

/** The generated link, once: after "Done" it exists nowhere on the page. */
function showLinkOnce(cell, r, body, hooks) {
  hooks.stopPolling();
  const input = el('input', { type: 'text', readonly: true, value: body.setupUrl, 'data-field': 'setup-url' });
  const copied = el('span', { role: 'status', 'aria-live': 'polite' });
  const copy = el('button', {
    type: 'button',
    text: 'Copy',
    onclick: async () => {
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
  const done = el('button', {
    type: 'button',
    class: 'secondary',
    text: 'Done',
    onclick: () => {
      input.value = '';
      hooks.close('');
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

// The settings pages' shared pieces: the API's error as a line of text, the confirmation
// dialog, the secret shown once, and groups of checkboxes. Text is only ever set with
// textContent (dom.js).
import { $, el } from '../../assets/dom.js';

/**
 * The ticketing and platform envelopes (`{error: {code, message, details?}}`) as one
 * line: the API's own message, its per-field details, never a guess.
 */
export function errorText(res) {
  if (res.status === 0) return 'The server cannot be reached. Check the connection and try again.';
  const e = (res.body && res.body.error) || {};
  let text = e.message || 'The request failed (' + res.status + ').';
  if (e.details && typeof e.details === 'object') {
    const parts = Object.keys(e.details).map((f) => f + ': ' + [].concat(e.details[f]).join(', '));
    if (parts.length) text += ' — ' + parts.join('; ');
  }
  return text;
}

/**
 * Asks before a revoke or delete in the page's modal `<dialog>` (focus stays inside it,
 * Escape cancels); resolves true when confirmed. Focus goes back where it was.
 */
export function confirmAction(opts) {
  const dialog = $('confirm-dialog');
  const before = document.activeElement;
  $('confirm-title').textContent = opts.title;
  $('confirm-text').textContent = opts.text;
  $('confirm-ok').textContent = opts.confirmText;
  return new Promise((resolve) => {
    const ok = $('confirm-ok');
    const cancel = $('confirm-cancel');
    const done = (answer) => {
      ok.removeEventListener('click', onOk);
      cancel.removeEventListener('click', onCancel);
      dialog.removeEventListener('close', onClose);
      if (dialog.open) dialog.close();
      if (before && before.isConnected && typeof before.focus === 'function') before.focus();
      resolve(answer);
    };
    const onOk = () => done(true);
    const onCancel = () => done(false);
    const onClose = () => done(false);
    ok.addEventListener('click', onOk);
    cancel.addEventListener('click', onCancel);
    dialog.addEventListener('close', onClose);
    dialog.showModal();
    // the safe choice first: Enter right away cancels
    cancel.focus();
  });
}

async function copy(input, note) {
  try {
    await navigator.clipboard.writeText(input.value);
    note.textContent = 'Copied to the clipboard.';
  } catch (e) {
    // no clipboard permission: select it, for Ctrl+C
    input.focus();
    input.select();
    note.textContent = 'Selected: press Ctrl+C (⌘C) to copy.';
  }
}

/**
 * A new secret in `container`, once: a read-only field, a Copy button, and the warning
 * that it is never shown again. "Done" removes it from the page (the page keeps no copy).
 * Focus moves to the field so that a screen reader reads it next.
 */
export function showSecretOnce(container, opts) {
  const input = el('input', { id: opts.id, type: 'text', readonly: true, value: opts.secret, spellcheck: 'false', 'aria-describedby': opts.id + '-warning' });
  const note = el('span', { role: 'status', class: 'hint' });
  const box = el('div', { class: 'secret-once' }, [
    el('h3', { text: opts.title }),
    el('p', { id: opts.id + '-warning', text: 'Copy it now: you will not see it again. This page keeps no copy.' }),
    el('label', { for: opts.id, text: opts.label }),
    el('div', { class: 'row' }, [
      input,
      el('button', { type: 'button', text: 'Copy', onclick: () => copy(input, note) }),
      el('button', { type: 'button', class: 'secondary', text: 'Done', onclick: () => { container.replaceChildren(); if (opts.onDone) opts.onDone(); } }),
      note,
    ]),
  ]);
  container.replaceChildren(box);
  input.focus();
  input.select();
}

/** One checkbox per value in `fieldset` (after its legend); `checked` values ticked. */
export function fillChecks(fieldset, idPrefix, values, checked) {
  const wrap = el('div', { class: 'checks' });
  values.forEach((v) => {
    const id = idPrefix + '-' + v.replace(/[^a-z0-9]+/gi, '-');
    wrap.appendChild(el('div', {}, [
      el('input', { type: 'checkbox', id: id, value: v, checked: checked.indexOf(v) >= 0 }),
      el('label', { for: id, text: v }),
    ]));
  });
  Array.prototype.slice.call(fieldset.querySelectorAll('.checks')).forEach((n) => n.remove());
  fieldset.appendChild(wrap);
}

/** The ticked values of a fieldset's checkboxes. */
export function checkedValues(fieldset) {
  return Array.prototype.map.call(fieldset.querySelectorAll('input[type="checkbox"]:checked'), (i) => i.value);
}

/** A table cell with text or an element; `cls` its class ('text': free text that may break anywhere). */
export function cell(content, cls) {
  const td = el('td', cls ? { class: cls } : {});
  if (typeof content === 'string') td.textContent = content;
  else if (content) td.appendChild(content);
  return td;
}

export const badge = (text, kind) => el('span', { class: 'badge' + (kind ? ' is-' + kind : ''), text: text });

// A workspace's webhook endpoints: register one (the signing secret shown once), the list
// as cards (endpoint-card.js), and the empty state. The same module serves both pages; an
// adapter (ticketing.js, platform.js) makes the calls to its API's own routes.
import { $, announce, el, setBusy } from '../../assets/dom.js';
import { checkedValues, errorText, fillChecks, showSecretOnce } from './ui.js';
import { endpointCard, focusTitle } from './endpoint-card.js';

let adapter = null;

function createForm() {
  const events = el('fieldset', { id: 'webhook-events' }, [el('legend', { text: 'Events' })]);
  fillChecks(events, 'event', adapter.eventTypes, adapter.eventTypes.slice(0, 1));
  const form = el('form', { id: 'create-webhook', class: 'stack', method: 'post', novalidate: true }, [
    el('label', { for: 'webhook-url', text: 'URL' }),
    el('input', { id: 'webhook-url', type: 'url', required: true, maxlength: 2048, spellcheck: 'false', 'aria-describedby': 'webhook-url-hint' }),
    el('p', { id: 'webhook-url-hint', class: 'hint', text: adapter.urlHint }),
    el('label', { for: 'webhook-description', text: 'Description (optional)' }),
    el('input', { id: 'webhook-description', type: 'text', maxlength: 500 }),
    events,
    el('p', { id: 'create-webhook-error', class: 'error', role: 'alert' }),
    el('button', { type: 'submit', text: 'Register endpoint' }),
  ]);
  form.addEventListener('submit', onCreate);
  return el('details', { id: 'new-webhook' }, [el('summary', { text: 'Register a webhook endpoint' }), form]);
}

function showEmpty() {
  $('webhooks-empty').hidden = $('webhook-list').children.length > 0;
}

export async function loadEndpoints() {
  const res = await adapter.list();
  if (!res.ok) {
    $('webhook-list').replaceChildren();
    announce('The webhook endpoints could not be loaded: ' + errorText(res), 'error');
    return;
  }
  const ctx = { adapter: adapter, onDeleted: () => { showEmpty(); focusTitle(); } };
  $('webhook-list').replaceChildren.apply($('webhook-list'), res.items.map((e) => endpointCard(e, ctx)));
  showEmpty();
}

async function onCreate(ev) {
  ev.preventDefault();
  const form = ev.target;
  const error = $('create-webhook-error');
  const url = $('webhook-url').value.trim();
  const events = checkedValues($('webhook-events'));
  error.textContent = '';
  if (!url) {
    error.textContent = 'Enter the URL that receives the events.';
    $('webhook-url').focus();
    return;
  }
  if (!events.length) {
    error.textContent = 'Choose at least one event.';
    return;
  }
  setBusy(form, true);
  const res = await adapter.create({ url: url, events: events, description: $('webhook-description').value.trim() });
  setBusy(form, false);
  if (!res.ok) {
    error.textContent = errorText(res);
    return;
  }
  form.reset();
  fillChecks($('webhook-events'), 'event', adapter.eventTypes, adapter.eventTypes.slice(0, 1));
  $('new-webhook').open = false;
  announce('Registered ' + url + '.', 'ok');
  showSecretOnce($('webhooks-secret'), {
    id: 'new-webhook-secret',
    title: 'The signing secret of ' + url,
    label: 'Signing secret',
    secret: res.body.secret,
    onDone: focusTitle,
  });
  await loadEndpoints();
}

/** Shows the endpoints of `a` (an adapter) in #webhooks, replacing what was there. */
export function initWebhooks(a) {
  adapter = a;
  $('webhooks').replaceChildren(
    el('div', { id: 'webhooks-secret' }),
    createForm(),
    el('p', { id: 'webhooks-empty', class: 'empty', hidden: true, text: 'No webhook endpoints yet. Register one above: the URL that should receive ' + adapter.whose + ' events, and which events.' }),
    el('div', { id: 'webhook-list', class: 'cards' }),
  );
  $('webhooks-section').hidden = false;
  return loadEndpoints();
}

// One webhook endpoint as a card: its URL, events and state, and its actions (pause or
// resume, test mode and the test-event sender where the API has them, the delivery log,
// delete after a confirmation). A change answers with the endpoint, which replaces the card.
import { $, announce, el } from '../../assets/dom.js';
import { badge, confirmAction, errorText } from './ui.js';
import { showLog } from './deliveries.js';

const REASONS = { manual: 'paused by hand', delivery_failed: 'paused after a delivery failed five times' };

function stateText(e) {
  if (e.active) return 'Active';
  return 'Paused' + (e.pausedReason ? ' — ' + REASONS[e.pausedReason] : '') + (e.pausedAt ? ' since ' + new Date(e.pausedAt).toLocaleString() : '');
}

const ALL = '*all';

/** What the test sender's deliveries came to, as one sentence. */
function testOutcome(deliveries) {
  const lasts = deliveries.map((d) => d.attemptLog[d.attemptLog.length - 1]);
  const good = lasts.filter((a) => a && a.statusCode !== null && a.statusCode < 300).length;
  if (lasts.some((a) => !a)) return { ok: true, text: 'The test event is on its way; see the delivery log.' };
  if (deliveries.length === 1) {
    const a = lasts[0];
    return good ? { ok: true, text: 'Test event delivered: the endpoint answered ' + a.statusCode + '.' }
      : { ok: false, text: 'The test event failed: ' + (a.error || 'the endpoint answered ' + a.statusCode) + '.' };
  }
  return { ok: good === lasts.length, text: good + ' of ' + lasts.length + ' test events delivered; see the delivery log.' };
}

const named = (text, e) => [text, el('span', { class: 'visually-hidden', text: ' ' + e.url })];

/** The card of endpoint `e`; `ctx` = { adapter, onDeleted } from webhooks.js. */
export function endpointCard(e, ctx) {
  const adapter = ctx.adapter;
  const logPanel = el('div', { class: 'log', id: 'log-' + e.id, hidden: true });
  const card = el('article', { class: 'card', 'data-id': e.id, 'data-active': String(e.active), 'aria-labelledby': 'url-' + e.id });
  let reloadLog = null;

  const replaceWith = (updated, focusId) => {
    const next = endpointCard(updated, ctx);
    card.replaceWith(next);
    const f = focusId && document.getElementById(focusId);
    if (f) f.focus();
  };

  const toggle = el('button', { type: 'button', class: 'secondary', id: 'toggle-' + e.id }, named(e.active ? 'Pause' : 'Resume', e));
  toggle.addEventListener('click', async () => {
    toggle.disabled = true;
    const res = await adapter.patch(e.id, { active: !e.active });
    if (!res.ok) {
      toggle.disabled = false;
      announce('Not changed: ' + errorText(res), 'error');
      return;
    }
    announce((e.active ? 'Paused ' : 'Resumed ') + e.url + '.', 'ok');
    replaceWith(res.item, 'toggle-' + e.id);
  });

  const logButton = el('button', { type: 'button', class: 'secondary', 'aria-expanded': 'false', 'aria-controls': logPanel.id }, named('Delivery log', e));
  const openLog = async () => {
    logPanel.hidden = false;
    logButton.setAttribute('aria-expanded', 'true');
    if (reloadLog) await reloadLog();
    else reloadLog = await showLog(logPanel, adapter, e);
  };
  logButton.addEventListener('click', async () => {
    if (!logPanel.hidden) {
      logPanel.hidden = true;
      logButton.setAttribute('aria-expanded', 'false');
      return;
    }
    await openLog();
  });

  const remove = el('button', { type: 'button', class: 'secondary danger' }, named('Delete', e));
  remove.addEventListener('click', async () => {
    const sure = await confirmAction({
      title: 'Delete this webhook endpoint?',
      text: e.url + ' receives no more events; its delivery log goes with it. Deliveries already on their way may still arrive.',
      confirmText: 'Delete endpoint',
    });
    if (!sure) return;
    const res = await adapter.remove(e.id);
    if (!res.ok) {
      announce('Not deleted: ' + errorText(res), 'error');
      return;
    }
    announce('Deleted the endpoint ' + e.url + '.', 'ok');
    card.remove();
    ctx.onDeleted();
  });

  const tools = [toggle];
  if (adapter.testMode) {
    const sw = el('input', { type: 'checkbox', role: 'switch', id: 'testmode-' + e.id, checked: !!e.testMode, 'aria-describedby': 'testmode-hint-' + e.id });
    sw.addEventListener('change', async () => {
      sw.disabled = true;
      const res = await adapter.patch(e.id, { testMode: sw.checked });
      if (!res.ok) {
        sw.disabled = false;
        sw.checked = !sw.checked;
        announce('Test mode not changed: ' + errorText(res), 'error');
        return;
      }
      announce(res.item.testMode ? 'Test mode is on for ' + e.url + ': real events are withheld from it.' : 'Test mode is off for ' + e.url + ': real events are sent again.', 'ok');
      replaceWith(res.item, 'testmode-' + e.id);
    });
    tools.push(el('div', { class: 'switch' }, [sw, el('label', { for: sw.id, text: 'Test mode' })]));
  }
  if (adapter.sendTest) {
    const options = e.events.map((t) => el('option', { value: t, text: t }));
    if (e.events.length > 1) options.push(el('option', { value: ALL, text: 'one of each subscribed type' }));
    const pick = el('select', { id: 'test-event-' + e.id }, options);
    const send = el('button', { type: 'button', id: 'send-test-' + e.id }, named('Send test event', e));
    send.addEventListener('click', async () => {
      send.disabled = true;
      announce('Sending ' + (pick.value === ALL ? 'a test event of each subscribed type' : 'a test ' + pick.value + ' event') + ' to ' + e.url + '…');
      const res = await adapter.sendTest(e.id, pick.value === ALL ? null : pick.value);
      send.disabled = false;
      if (!res.ok) {
        announce('No test event sent: ' + errorText(res), 'error');
        return;
      }
      const outcome = testOutcome(res.body.data || [res.body]);
      announce(outcome.text, outcome.ok ? 'ok' : 'error');
      await openLog();
    });
    tools.push(el('div', { class: 'test-sender' }, [el('label', { for: pick.id, text: 'Test event' }), pick, send]));
  }
  tools.push(logButton, remove);

  const details = el('dl', {}, [
    el('dt', { text: 'Events' }), el('dd', { text: e.events.join(', ') }),
    el('dt', { text: 'Description' }), el('dd', { text: e.description || '—' }),
    el('dt', { text: 'State' }), el('dd', { 'data-field': 'state' }, [badge(stateText(e), e.active ? null : 'off'),
      adapter.testMode && e.testMode ? badge('test mode: real events withheld', 'off') : null]),
    el('dt', { text: 'Id' }), el('dd', { class: 'mono', text: e.id }),
  ]);
  card.append(el('h3', { id: 'url-' + e.id, class: 'mono', text: e.url }), details);
  if (adapter.testMode) card.append(el('p', { id: 'testmode-hint-' + e.id, class: 'hint', text: 'Test mode: while on, the workspace’s real events are not sent here; test events are.' }));
  card.append(el('div', { class: 'toolbar' }, tools), logPanel);
  return card;
}

export const focusTitle = () => $('webhooks-title').focus();

// An endpoint's delivery log (the last 7 days, newest first): each delivery with every
// attempt, and a Redeliver button. The API's shapes differ (camelCase on /v1, snake_case
// on /platform/v1); the page's adapter (ticketing.js, platform.js) hands them over alike.
import { announce, el, when } from '../../assets/dom.js';
import { badge, cell, errorText } from './ui.js';

const KINDS = { succeeded: null, pending: null, failed: 'bad', skipped: 'off' };

function attemptsTable(d) {
  if (!d.attemptLog.length) return el('p', { class: 'hint', text: 'No attempt yet.' });
  const head = el('tr', {}, ['#', 'Started', 'Answer', 'Latency', 'Error'].map((h) => el('th', { scope: 'col', text: h })));
  const rows = d.attemptLog.map((a) =>
    el('tr', { 'data-attempt': a.attempt }, [
      cell(String(a.attempt)),
      cell(when(a.startedAt)),
      cell(a.statusCode === null ? 'no answer' : String(a.statusCode)),
      cell(a.latencyMs === null ? '—' : a.latencyMs + ' ms'),
      cell(a.error || '—', 'text'),
    ]));
  return el('table', {}, [el('caption', { text: 'Attempts of ' + d.id }), el('thead', {}, [head]), el('tbody', {}, rows)]);
}

function deliveryItem(d, adapter, endpoint, reload) {
  const redeliver = el('button', { type: 'button', class: 'secondary', disabled: d.status === 'pending' },
    ['Redeliver', el('span', { class: 'visually-hidden', text: ' ' + d.id })]);
  redeliver.addEventListener('click', async () => {
    redeliver.disabled = true;
    const res = await adapter.redeliver(endpoint.id, d.id);
    if (!res.ok) {
      redeliver.disabled = false;
      announce('Not redelivered: ' + errorText(res), 'error');
      return;
    }
    announce('Redelivering ' + d.event + ' (' + d.id + '): new attempts show in the log.', 'ok');
    await reload();
  });
  return el('div', { class: 'delivery', 'data-id': d.id, 'data-status': d.status }, [
    el('div', { class: 'toolbar' }, [
      el('div', {}, [
        el('strong', { text: d.event }),
        badge(d.status, KINDS[d.status]),
        d.test ? badge('test event') : null,
        el('span', { class: 'hint', text: when(d.createdAt) + ' · ' + d.attempts + (d.attempts === 1 ? ' attempt' : ' attempts') }),
      ]),
      redeliver,
    ]),
    attemptsTable(d),
  ]);
}

/** Fills `panel` with the log of `endpoint` and keeps a Refresh button on top. */
export async function showLog(panel, adapter, endpoint) {
  const list = el('div', { class: 'deliveries', 'aria-live': 'polite', 'aria-busy': 'true' });
  const load = async () => {
    list.setAttribute('aria-busy', 'true');
    const res = await adapter.deliveries(endpoint.id);
    list.setAttribute('aria-busy', 'false');
    if (!res.ok) {
      list.replaceChildren(el('p', { class: 'error', text: 'The log could not be loaded: ' + errorText(res) }));
      return;
    }
    if (!res.items.length) {
      list.replaceChildren(el('p', { class: 'empty', text: 'No deliveries in the last 7 days. ' + adapter.emptyLogHint }));
      return;
    }
    list.replaceChildren.apply(list, res.items.map((d) => deliveryItem(d, adapter, endpoint, load)));
  };
  const refresh = el('button', { type: 'button', class: 'secondary', text: 'Refresh log', onclick: load });
  panel.replaceChildren(
    el('div', { class: 'toolbar' }, [el('h4', { text: 'Delivery log, last 7 days' }), refresh]),
    list,
  );
  await load();
  return load;
}

// The ticketing workspace page (/settings/ticketing): API keys of the organisation, and
// the webhook endpoints of one workspace (the key's own, or the one named in the form
// when the key reaches the whole organisation) with test mode and the test-event sender.
// Every call goes to the /v1 routes any client uses, with the session (session.js).
import { $, announce } from '../../assets/dom.js';
import { api } from '../../assets/session.js';
import { initKeys } from './keys.js';
import { startPage } from './page.js';
import { initWebhooks } from './webhooks.js';

// the ticketing API's event types (api/ticketing/webhooks/schema.ts)
const EVENT_TYPES = ['ticket.created', 'ticket.assigned', 'ticket.resolved', 'ticket.closed', 'message.created', 'player.created', 'sla.breached'];

/** /v1's webhook calls for workspace `ws`, their answers in the shapes webhooks.js reads. */
function ticketingAdapter(ws) {
  const path = (id) => '/v1/webhooks/' + encodeURIComponent(id);
  const endpoint = (e) => ({
    id: e.id, url: e.url, events: e.events, description: e.description, active: e.active,
    testMode: e.testMode === true, pausedReason: null, pausedAt: null,
  });
  return {
    eventTypes: EVENT_TYPES,
    whose: 'this workspace’s',
    urlHint: 'Events are POSTed here as JSON, signed with the endpoint’s secret (shown once, after you register it).',
    emptyLogHint: 'Send a test event, or wait for the workspace’s next event.',
    testMode: true,
    async list() {
      const res = await api('GET', '/v1/webhooks?workspaceId=' + encodeURIComponent(ws));
      if (res.ok) res.items = res.body.data.map(endpoint);
      return res;
    },
    create: (b) => api('POST', '/v1/webhooks', { workspaceId: ws, url: b.url, events: b.events, description: b.description }),
    async patch(id, body) {
      const res = await api('PATCH', path(id), body);
      if (res.ok) res.item = endpoint(res.body);
      return res;
    },
    remove: (id) => api('DELETE', path(id)),
    async deliveries(id) {
      const res = await api('GET', path(id) + '/deliveries?limit=25');
      if (res.ok) res.items = res.body.data;
      return res;
    },
    redeliver: (id, deliveryId) => api('POST', path(id) + '/deliveries/' + encodeURIComponent(deliveryId) + '/redeliver'),
    // `event` null: one test event of each subscribed type
    sendTest: (id, event) => api('POST', path(id) + '/test', event ? { event: event } : { all: true }),
  };
}

/** An organisation-wide key names its workspace in the form; the address keeps the choice. */
function chooseWorkspace() {
  const form = $('workspace-form');
  form.hidden = false;
  const show = (ws) => {
    history.replaceState(null, '', '/settings/ticketing?workspace=' + encodeURIComponent(ws));
    return initWebhooks(ticketingAdapter(ws));
  };
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const ws = $('workspace-id').value.trim();
    if (!ws) {
      announce('Enter the id of the workspace whose endpoints to manage.', 'error');
      $('workspace-id').focus();
      return;
    }
    show(ws);
  });
  const asked = new URLSearchParams(location.search).get('workspace');
  $('webhooks-section').hidden = false;
  if (asked) {
    $('workspace-id').value = asked;
    return show(asked);
  }
  return null;
}

async function main() {
  const session = await startPage('ticketing');
  if (!session) return;
  await Promise.all([
    initKeys(session),
    session.workspaceId ? initWebhooks(ticketingAdapter(session.workspaceId)) : chooseWorkspace(),
  ]);
}

main();

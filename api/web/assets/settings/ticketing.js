// The ticketing workspace page (/settings/ticketing): API keys of the organisation, and
// the webhook endpoints of one workspace (the key's own, or the one named in the form
// when the key reaches the whole organisation) with test mode and the test-event sender.
// Every call goes to the /v1 routes any client uses, with the session (session.js).
import { $, announce } from '../../assets/dom.js';
import { api } from '../../assets/session.js';
import { initKeys } from './keys.js';
import { startPage } from './page.js';
import { initWebhooks } from './webhooks.js';
import { webhookCalls } from './webhook-calls.js';

// the ticketing API's event types (api/ticketing/webhooks/schema.ts)
const EVENT_TYPES = ['ticket.created', 'ticket.assigned', 'ticket.resolved', 'ticket.closed', 'message.created', 'player.created', 'sla.breached'];

/** /v1's webhook calls for workspace `ws`, their answers in the shapes webhooks.js reads. */
function ticketingAdapter(ws) {
  const calls = webhookCalls({
    base: '/v1/webhooks',
    listPath: '/v1/webhooks?workspaceId=' + encodeURIComponent(ws),
    deliveriesQuery: 'limit=25',
    endpoint: (e) => ({
      id: e.id, url: e.url, events: e.events, description: e.description, active: e.active,
      testMode: e.testMode === true, pausedReason: null, pausedAt: null,
    }),
    delivery: (d) => d, // /v1's deliveries are already in the page's shape
    createBody: (b) => ({ workspaceId: ws, url: b.url, events: b.events, description: b.description }),
  });
  return {
    eventTypes: EVENT_TYPES,
    whose: 'this workspace’s',
    urlHint: 'Events are POSTed here as JSON, signed with the endpoint’s secret (shown once, after you register it).',
    emptyLogHint: 'Send a test event, or wait for the workspace’s next event.',
    testMode: true,
    ...calls,
    // `event` null: one test event of each subscribed type
    sendTest: (id, event) => api('POST', calls.path(id) + '/test', event ? { event: event } : { all: true }),
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

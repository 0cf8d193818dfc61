// The platform workspace page (/settings/platform): the tokens, and the webhook endpoints
// of the signed-in token's workspace and environment with their paused state and reason.
// Every call goes to the /platform/v1 routes any client uses, with the session (session.js).
import { startPage } from './page.js';
import { initTokens } from './tokens.js';
import { initWebhooks } from './webhooks.js';
import { webhookCalls } from './webhook-calls.js';

// the platform API's event types (domain/platform/webhook-events.ts)
const EVENT_TYPES = ['ticket.created', 'ticket.updated', 'ticket.resolved', 'ticket.closed', 'ticket.sla_breached', 'automation.fired', 'risk_signal.triggered'];

/** /platform/v1's webhook calls (the token's workspace), their answers in the shapes webhooks.js reads. */
const platformAdapter = {
  eventTypes: EVENT_TYPES,
  whose: 'this workspace’s',
  urlHint: 'HTTPS to a public address. After a delivery fails five times the endpoint is paused and the admins are emailed.',
  emptyLogHint: 'Deliveries show here after the workspace’s next event.',
  testMode: false,
  ...webhookCalls({
    base: '/platform/v1/webhooks',
    listPath: '/platform/v1/webhooks?per_page=100',
    deliveriesQuery: 'per_page=25',
    endpoint: (e) => ({
      id: e.id, url: e.url, events: e.events, description: e.description, active: e.active,
      testMode: false, pausedReason: e.paused_reason, pausedAt: e.paused_at,
    }),
    delivery: (d) => ({
      id: d.id, event: d.event, status: d.status, attempts: d.attempts, test: false, createdAt: d.created_at,
      attemptLog: d.attempt_log.map((a) => ({ attempt: a.attempt, startedAt: a.started_at, statusCode: a.status_code, latencyMs: a.latency_ms, error: a.error })),
    }),
    createBody: (b) => ({ url: b.url, events: b.events, description: b.description }),
  }),
  sendTest: null,
};

async function main() {
  const session = await startPage('platform');
  if (!session) return;
  await Promise.all([initTokens(session), initWebhooks(platformAdapter)]);
}

main();

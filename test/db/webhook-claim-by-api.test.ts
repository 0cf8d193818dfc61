// The webhook engine reads what differs between APIs from the API table: the outbox claim
// matches each event to endpoints of its own API and makes one batch per API (one batch
// when the events share one), each body in its API's envelope; the pause step emails the
// recipients the endpoint's API names, and commits only once a provider accepted the mail.
// A second API ('platform') is a row of a table given to the engine, nothing more. A
// database of its own: the test run's dispatcher must not claim these events.
import assert from 'node:assert/strict';
import { connectDb, type Db } from '../../db/db';
import { recordEvent, type NewEvent } from '../../db/repositories/events';
import { WEBHOOK_APIS, type WebhookApis } from '../../domain/webhooks/apis';
import { claimEvents } from '../../domain/webhooks/claim-events';
import { pauseExhaustedEndpoints } from '../../domain/webhooks/pause-exhausted-endpoints';
import { PLATFORM_RETRY_SCHEDULE } from '../../domain/webhooks/retry-schedules';
import { EmailNotAccepted } from '../../lib/email/send-accepted';
import { NO_EMAIL } from '../../lib/email/no-email';
import type { EmailChain, EmailMessage } from '../../lib/email/types';
import { newId } from '../../lib/ids';
import { createAgent, createTenant } from '../support/factories';
import { throwawayDatabase, type ThrowawayDb } from '../support/throwaway-db';
import { insertAttempt, insertEndpoint } from '../support/webhook-factories';
import { insertEndpoint as insertEndpointRow } from '../../db/repositories/webhook-endpoints';
import { createPlatformTenant } from '../../domain/platform/create-tenant';
import { encryptSecret } from '../../lib/crypto/secret-box';
import { newEndpointSecret } from '../../lib/webhooks/signing';

let throwaway: ThrowawayDb;
let db: Db;
let workspaceId: string;
/** a platform workspace: a platform endpoint's foreign key names one (migration PlatformWebhookEndpoints) */
let platformWorkspaceId: string;
let ticketingEndpoint: string;
let platformEndpoint: string;

const PLATFORM_OWNER = 'owner@platform.test';
/** A second API as the next issue will add it: a row, with its own schedule, envelope and recipients. */
const APIS = {
  ...WEBHOOK_APIS,
  platform: {
    name: 'platform',
    schedule: PLATFORM_RETRY_SCHEDULE,
    envelope: (id: string, e: { type: string }) => JSON.stringify({ id, event_type: e.type }),
    signatures: ['service-signature'],
    pauseRecipients: async () => [PLATFORM_OWNER],
  },
} as unknown as WebhookApis;

beforeAll(async () => {
  throwaway = await throwawayDatabase('webhook_claim_by_api');
  await throwaway.migrate();
  db = await connectDb(throwaway.url, 2);
  ({ workspace: { id: workspaceId } } = await createTenant(db));
  await createAgent(db, workspaceId);
  const key = Buffer.alloc(32, 1);
  ticketingEndpoint = (await insertEndpoint(db, { workspaceId, url: 'https://hooks.example.com/t', events: ['ticket.created'], key })).id;
  ({ workspaceId: platformWorkspaceId } = await createPlatformTenant(db, { name: 'Claim by API' }));
  platformEndpoint = newId('wh');
  const secretBox = encryptSecret(key, newEndpointSecret(), platformEndpoint);
  await insertEndpointRow(db, { id: platformEndpoint, api: 'platform', environment: 'test', workspaceId: platformWorkspaceId, url: 'https://hooks.example.com/p', events: ['ticket.created'], description: '', active: true, secretBox }, Infinity);
}, 60_000);

afterAll(async () => {
  await db?.close();
  await throwaway?.drop();
});

/** An event of `api` (a platform one of `environment`, default its endpoint's: test). */
const event = (api?: string, environment: 'live' | 'test' = 'test') =>
  recordEvent(db, {
    workspaceId: api === 'platform' ? platformWorkspaceId : workspaceId,
    type: 'ticket.created',
    subjectId: newId('tkt'),
    data: { n: 1 },
    at: new Date(),
    dedupeKey: `claim-by-api:${newId('evt')}`,
    ...(api && { api: api as NewEvent['api'] }),
    ...(api === 'platform' && { environment }),
  });

const deliveriesOf = async (ids: string[]) =>
  (await db.query('SELECT endpoint_id, body FROM webhook_deliveries WHERE id = ANY($1) ORDER BY id', [ids])).rows;

test('events of one API are one batch, delivered to that API’s endpoints only, in its envelope', async () => {
  await event();
  await event('ticketing');
  const { batches } = await claimEvents(db, { limit: 10, reclaimAfterMs: 30_000, apis: APIS });
  assert.equal(batches.length, 1);
  assert.equal(batches[0].api, 'ticketing');
  assert.equal(batches[0].events, 2);
  const rows = await deliveriesOf(batches[0].deliveryIds);
  assert.deepEqual(rows.map((r) => r.endpoint_id), [ticketingEndpoint, ticketingEndpoint]);
  assert.equal(JSON.parse(rows[0].body).workspaceId, workspaceId); // the ticketing envelope
});

test('a platform event of the other environment reaches no endpoint: live and test data never meet', async () => {
  await event('platform', 'live');
  const { batches } = await claimEvents(db, { limit: 10, reclaimAfterMs: 30_000, apis: APIS });
  assert.deepEqual(batches, [], 'nothing to send: the only platform endpoint is a test one');
  const { rows } = await db.query(
    `SELECT count(*)::int AS n FROM webhook_deliveries d JOIN events e ON e.id = d.event_id WHERE e.environment = 'live'`,
  );
  assert.equal(rows[0].n, 0);
});

test('a claim holding events of two APIs is one batch per API, each to its own endpoints in its own envelope', async () => {
  await event('ticketing');
  await event('platform');
  const { batches } = await claimEvents(db, { limit: 10, reclaimAfterMs: 30_000, apis: APIS });
  assert.deepEqual(batches.map((b) => b.api).sort(), ['platform', 'ticketing']);
  const platform = batches.find((b) => (b.api as string) === 'platform')!;
  const ticketing = batches.find((b) => b.api === 'ticketing')!;
  assert.notEqual(platform.batchId, ticketing.batchId);
  const [p] = await deliveriesOf(platform.deliveryIds);
  assert.equal(p.endpoint_id, platformEndpoint);
  assert.deepEqual(Object.keys(JSON.parse(p.body)), ['id', 'event_type']);
  assert.deepEqual((await deliveriesOf(ticketing.deliveryIds)).map((r) => r.endpoint_id), [ticketingEndpoint]);
});

/** A chain whose provider takes every message (or fails every one), recording what it was given. */
function recordingChain(accepts: boolean): EmailChain & { sent: EmailMessage[] } {
  const sent: EmailMessage[] = [];
  return {
    sent,
    providers: ['smtp', 'log'],
    async send(m) {
      sent.push(m);
      return accepts
        ? { delivered: true, provider: 'smtp', messageId: newId('msg'), errors: [] }
        : { delivered: false, provider: 'log', messageId: null, errors: ['smtp: ECONNREFUSED'] };
    },
  };
}

async function failedDeliveryTo(endpointId: string): Promise<string> {
  await db.query(`UPDATE webhook_endpoints SET active = true, paused_at = NULL, paused_reason = NULL WHERE id = $1`, [endpointId]);
  const id = newId('evt');
  await db.query(
    `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, workspace_id, body, status, attempts)
     VALUES ($1, $2, $3, 'ticket.created', $4, '{}', 'failed', 5)`,
    [id, endpointId, newId('evt'), workspaceId],
  );
  await insertAttempt(db, id, { attempt: 5, statusCode: 500, latencyMs: 12, error: null });
  return id;
}

const isActive = async (endpointId: string) => (await db.query('SELECT active FROM webhook_endpoints WHERE id = $1', [endpointId])).rows[0].active;

test('the pause email goes to the recipients the endpoint’s API names', async () => {
  const mailer = recordingChain(true);
  const delivery = await failedDeliveryTo(platformEndpoint);
  assert.deepEqual(await pauseExhaustedEndpoints(db, { mailer, apis: APIS }, [delivery]), [platformEndpoint]);
  assert.equal(await isActive(platformEndpoint), false);
  assert.deepEqual(mailer.sent.map((m) => m.to), [[PLATFORM_OWNER]]);
  assert.match(mailer.sent[0].text, new RegExp(delivery));
  // already paused: nothing more, nobody emailed again
  assert.deepEqual(await pauseExhaustedEndpoints(db, { mailer, apis: APIS }, [delivery]), []);
  assert.equal(mailer.sent.length, 1);
});

test('no provider accepting the email leaves the endpoint active (the activity retries); no provider configured pauses without email', async () => {
  const delivery = await failedDeliveryTo(ticketingEndpoint);
  const failing = recordingChain(false);
  await assert.rejects(pauseExhaustedEndpoints(db, { mailer: failing, apis: APIS }, [delivery]), EmailNotAccepted);
  assert.equal(failing.sent.length, 1);
  assert.equal(await isActive(ticketingEndpoint), true);
  assert.deepEqual(await pauseExhaustedEndpoints(db, { mailer: NO_EMAIL, apis: APIS }, [delivery]), [ticketingEndpoint]);
  assert.equal(await isActive(ticketingEndpoint), false);
});

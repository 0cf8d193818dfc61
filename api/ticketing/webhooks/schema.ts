// Webhook endpoints (the ticketing spec, "Webhook endpoint" resource and "Webhooks" endpoints):
// the zod schemas the routes validate with, and their OpenAPI paths.
import type { EventType } from '../../../db/repositories/events';
import type { PlatformEventType } from '../../../domain/platform/webhook-events';
import { endpointUrlField, eventTypesField } from '../../kit/webhook-fields';
import { z } from '../../zod';
import { registry, errorResponses, json, jsonBody as body, security } from '../openapi-registry';
import { intQuery } from '../../kit/pagination';
import { prefixedIdParam, text } from '../../kit/fields';
import { workspaceIdParam } from '../fields';

/** Every event type a webhook can subscribe to (spec, Events); there is no wildcard. */
export const WEBHOOK_EVENT_TYPES = [
  'ticket.created',
  'ticket.assigned',
  'ticket.resolved',
  'ticket.closed',
  'message.created',
  'player.created',
  'sla.breached',
] as const satisfies readonly EventType[];
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
// Compile-time guard: a type added to the outbox's EventType must be subscribable too,
// here or by the platform API's endpoints (domain/platform/webhook-events.ts).
const everyEventTypeListed: [Exclude<EventType, WebhookEventType | PlatformEventType>] extends [never] ? true : false = true;
void everyEventTypeListed;

/** Endpoints per workspace (paused ones count, deleted ones do not): docs/webhooks.md, "API". */
export const MAX_ENDPOINTS_PER_WORKSPACE = 20;
export const MAX_DESCRIPTION_LENGTH = 500;
export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'skipped'] as const;

const EventsField = eventTypesField(WEBHOOK_EVENT_TYPES);
const UrlField = endpointUrlField();
const DescriptionField = text(MAX_DESCRIPTION_LENGTH).openapi({ description: `A label, at most ${MAX_DESCRIPTION_LENGTH} characters.` });
const ActiveField = z.boolean({ invalid_type_error: 'must be true or false' }).openapi({ description: 'false means paused' });
const TestModeField = z.boolean({ invalid_type_error: 'must be true or false' }).openapi({
  description: "true: the workspace's real events are not sent to it (none is logged), only test events (POST /v1/webhooks/{id}/test); switching it off replays nothing",
});

// Unknown fields are a 400 (as for players): `{"enabled": false}` must not quietly do nothing.
export const CreateWebhookBody = z
  .object({
    workspaceId: workspaceIdParam().openapi({ example: 'ws_01jd3k8xq7' }),
    url: UrlField,
    events: EventsField,
    description: DescriptionField.default(''),
    active: ActiveField.default(true),
    testMode: TestModeField.default(false),
  })
  .strict()
  .openapi('CreateWebhook');

export const PatchWebhookBody = z
  .object({
    url: UrlField.optional(),
    events: EventsField.optional(),
    description: DescriptionField.optional(),
    active: ActiveField.optional(),
    testMode: TestModeField.optional(),
  })
  .strict()
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: 'at least one of url, events, description, active, testMode is required' })
  .openapi('PatchWebhook');

export const ListWebhooksQuery = z.object({ workspaceId: workspaceIdParam() });

export const TestWebhookBody = z
  .object({
    event: z
      .enum(WEBHOOK_EVENT_TYPES, { errorMap: () => ({ message: `must be one of ${WEBHOOK_EVENT_TYPES.join(', ')}` }) })
      .optional()
      .openapi({ description: "One of the endpoint's subscribed types; default its first." }),
    all: z
      .boolean({ invalid_type_error: 'must be true or false' })
      .optional()
      .openapi({ description: 'true: one test event of each subscribed type, answered as `{ data: [delivery, …] }`; not with `event`' }),
  })
  .strict()
  .refine((b) => !(b.all && b.event), { message: 'give either event or all, not both', path: ['all'] })
  .openapi('TestWebhook');

export const DeliveriesQuery = z.object({
  status: z.enum(DELIVERY_STATUSES).optional(),
  limit: intQuery(25, 1, 100),
  cursor: z.string().max(512).optional().openapi({ description: 'opaque; from pagination.nextCursor' }),
});
export type DeliveriesQuery = z.infer<typeof DeliveriesQuery>;

export const WebhookIdParams = z.object({ id: prefixedIdParam('wh') });
export const DeliveryParams = WebhookIdParams.extend({ deliveryId: z.string().openapi({ example: 'evt_01jd3k8xq7m2c4v9b0n6t5r8ya' }) });

const endpointShape = {
  id: z.string().openapi({ example: 'wh_01jd3k8xq7m2c4v9b0n6t5r8ya' }),
  workspaceId: z.string(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
  description: z.string(),
  active: z.boolean(),
  testMode: z.boolean().openapi({ description: 'true: only test events are sent to it (docs/webhooks.md, "Test mode")' }),
  createdAt: z.string().openapi({ format: 'date-time' }),
  updatedAt: z.string().openapi({ format: 'date-time' }),
};
export const WebhookEndpoint = registry.register('WebhookEndpoint', z.object(endpointShape));
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;
export const CreatedWebhookEndpoint = registry.register(
  'CreatedWebhookEndpoint',
  z.object({
    ...endpointShape,
    secret: z.string().openapi({ description: 'The signing secret; shown only in this response.', example: 'whsec_…' }),
  }),
);
export const RotatedWebhookSecret = registry.register(
  'RotatedWebhookSecret',
  z.object({
    ...endpointShape,
    secret: z.string().openapi({ description: 'The new signing secret; shown only in this response.', example: 'whsec_…' }),
    previousSecretExpiresAt: z.string().openapi({
      format: 'date-time',
      description: 'Until then deliveries also carry signatures with the secret this one replaced (24 h); then only the new one.',
    }),
  }),
);
export const WebhookList = registry.register(
  'WebhookList',
  z.object({ total: z.number().int(), data: z.array(WebhookEndpoint) }),
);

export const WebhookAttempt = registry.register(
  'WebhookAttempt',
  z.object({
    attempt: z.number().int().openapi({ description: '1-based; a redelivery continues the numbering' }),
    scheduledAt: z.string().openapi({ format: 'date-time' }),
    startedAt: z.string().openapi({ format: 'date-time' }),
    statusCode: z.number().int().nullable().openapi({ description: "the receiver's status; null when it never answered" }),
    latencyMs: z.number().int().nullable(),
    error: z.string().nullable().openapi({ description: 'why the attempt failed; null on success' }),
  }),
);
export type WebhookAttempt = z.infer<typeof WebhookAttempt>;

export const WebhookDelivery = registry.register(
  'WebhookDelivery',
  z.object({
    id: z.string().openapi({ description: 'the envelope id (`webhook-id`), the same on every attempt', example: 'evt_01jd3k8xq7m2c4v9b0n6t5r8ya' }),
    event: z.enum(WEBHOOK_EVENT_TYPES),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.number().int(),
    test: z.boolean().openapi({ description: 'true for deliveries of the test-event sender' }),
    createdAt: z.string().openapi({ format: 'date-time' }),
    completedAt: z.string().nullable().openapi({ format: 'date-time' }),
    payload: z.record(z.unknown()).openapi({ description: 'the envelope as sent' }),
    attemptLog: z.array(WebhookAttempt),
  }),
);
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookTestDeliveries = registry.register(
  'WebhookTestDeliveries',
  z.object({ data: z.array(WebhookDelivery).openapi({ description: 'one test delivery per subscribed type, in the order of `events`' }) }),
);
export type WebhookTestDeliveries = z.infer<typeof WebhookTestDeliveries>;

export const WebhookDeliveryPage = registry.register(
  'WebhookDeliveryPage',
  z.object({
    data: z.array(WebhookDelivery),
    pagination: z.object({ limit: z.number().int(), hasMore: z.boolean(), nextCursor: z.string().nullable() }),
  }),
);

// The /v1/webhooks paths in the OpenAPI document, from the schemas above.

const scope = 'Needs webhooks:manage.';
const hidden = '404 `webhook_not_found` also for an endpoint in a workspace the key cannot use, or deleted.';

registry.registerPath({
  method: 'post',
  path: '/v1/webhooks',
  summary: 'Register a webhook endpoint',
  description:
    `${scope} The response is the only place the signing secret is shown. At most ${MAX_ENDPOINTS_PER_WORKSPACE} ` +
    'endpoints per workspace (409 `webhook_limit_reached`). With `Idempotency-Key` the answer is replayed (the secret kept sealed with the secret box for 24 h).',
  security,
  request: body(CreateWebhookBody),
  responses: { 201: json(CreatedWebhookEndpoint, 'The endpoint, with its secret'), ...errorResponses(400, 409) },
});

registry.registerPath({
  method: 'get',
  path: '/v1/webhooks',
  summary: "A workspace's webhook endpoints, oldest first",
  description: `${scope} Never includes secrets.`,
  security,
  request: { query: ListWebhooksQuery },
  responses: { 200: json(WebhookList, 'Every endpoint of the workspace'), ...errorResponses(400) },
});

registry.registerPath({
  method: 'get',
  path: '/v1/webhooks/{id}',
  summary: 'Get a webhook endpoint',
  description: `${scope} ${hidden}`,
  security,
  request: { params: WebhookIdParams },
  responses: { 200: json(WebhookEndpoint, 'The endpoint'), ...errorResponses(404) },
});

registry.registerPath({
  method: 'patch',
  path: '/v1/webhooks/{id}',
  summary: 'Change url, events, description, active (pause/resume) or testMode',
  description: `${scope} The same rules as registration. The secret is changed by POST /v1/webhooks/{id}/rotate-secret. ${hidden}`,
  security,
  request: { params: WebhookIdParams, ...body(PatchWebhookBody) },
  responses: { 200: json(WebhookEndpoint, 'The endpoint as changed'), ...errorResponses(400, 404) },
});

registry.registerPath({
  method: 'delete',
  path: '/v1/webhooks/{id}',
  summary: 'Remove a webhook endpoint',
  description: `${scope} Deliveries already queued may still arrive shortly after. ${hidden}`,
  security,
  request: { params: WebhookIdParams },
  responses: { 204: { description: 'Removed; no body' }, ...errorResponses(404) },
});

registry.registerPath({
  method: 'post',
  path: '/v1/webhooks/{id}/rotate-secret',
  summary: 'Rotate the signing secret (the new one is shown once)',
  description:
    `${scope} For 24 h deliveries carry both signatures: \`webhook-signature\` lists \`v1,<new> v1,<old>\`, ` +
    '`X-Service-Signature` is keyed with the new secret and `X-Service-Signature-Previous` with the old one; then only the new one. ' +
    `A second rotation within the 24 h keeps only the secret it replaces as the old one. ${hidden}`,
  security,
  request: { params: WebhookIdParams },
  responses: { 200: json(RotatedWebhookSecret, 'The endpoint, with its new secret'), ...errorResponses(404) },
});

registry.registerPath({
  method: 'get',
  path: '/v1/webhooks/{id}/deliveries',
  summary: 'The delivery log of an endpoint (last 7 days), newest first',
  description: `${scope} Cursor-paginated; each delivery carries the envelope as sent and every attempt. ${hidden}`,
  security,
  request: { params: WebhookIdParams, query: DeliveriesQuery },
  responses: { 200: json(WebhookDeliveryPage, 'One page of deliveries'), ...errorResponses(400, 404) },
});

registry.registerPath({
  method: 'post',
  path: '/v1/webhooks/{id}/deliveries/{deliveryId}/redeliver',
  summary: 'Send a delivery again, on the full retry schedule',
  description:
    `${scope} Keeps the same evt_ id (receivers deduplicate on it); attempt numbers continue. ` +
    '409 `delivery_in_progress` while it is pending, 409 `webhook_paused` for a paused endpoint, 409 `webhook_test_mode` for a real ' +
    "event's delivery while the endpoint is in test mode (test deliveries may be redelivered), 404 `delivery_not_found` " +
    'outside the 7-day log, 503 when the delivery could not be started (nothing changed).',
  security,
  request: { params: DeliveryParams },
  responses: { 202: json(WebhookDelivery, 'The delivery, pending again'), ...errorResponses(404, 409, 503) },
});

registry.registerPath({
  method: 'post',
  path: '/v1/webhooks/{id}/test',
  summary: 'Send a synthetic test event now (or one of each subscribed type) and report the attempt',
  description:
    `${scope} One signed attempt with sample data (ids contain \`_test_\`), no retries; waits up to 35 s for it. ` +
    'Works whether or not the endpoint is in test mode. With `{"all": true}` one test event of each subscribed type, sent at once, ' +
    'answered as `{ data: [delivery, …] }`. 202 when an attempt is still running after that. 409 `webhook_paused` for a paused endpoint.',
  security,
  request: { params: WebhookIdParams, body: { required: false, content: { 'application/json': { schema: TestWebhookBody } } } },
  responses: {
    200: json(z.union([WebhookDelivery, WebhookTestDeliveries]), 'The test delivery with its attempt (with `all`: every one)'),
    202: json(z.union([WebhookDelivery, WebhookTestDeliveries]), 'Still running; see the delivery log'),
    ...errorResponses(400, 404, 409, 503),
  },
});

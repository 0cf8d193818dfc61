// Platform webhook endpoints (docs/platform.md, "Webhooks"): the request and
// response schemas the routes validate and answer with, and their OpenAPI paths.
import { z } from '../../zod';
import { json, jsonBody } from '../../kit/openapi';
import { errorResponses, registry, security } from '../openapi';
import { text } from '../../kit/fields';
import { PLATFORM_EVENT_TYPES } from '../../../domain/platform/webhook-events';
import { endpointUrlField, eventTypesField } from '../../kit/webhook-fields';
import { PlatformListSchema, PlatformPageQuery } from '../paging';

/** Live endpoints per workspace (paused ones count, deleted ones do not), as on /v1. */
export const MAX_PLATFORM_ENDPOINTS_PER_WORKSPACE = 20;
export const MAX_DESCRIPTION_LENGTH = 500;
export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'skipped'] as const;

export const webhookId = z.string().openapi({ example: 'wh_01jd3k8xq7m2c4v9b0n6t5r8ya' });
export const deliveryId = z.string().openapi({ example: 'evt_01jd3k8xq7m2c4v9b0n6t5r8ya' });

const EventsField = eventTypesField(PLATFORM_EVENT_TYPES);
const UrlField = endpointUrlField();
const DescriptionField = text(MAX_DESCRIPTION_LENGTH).openapi({ description: `A label, at most ${MAX_DESCRIPTION_LENGTH} characters.` });
const ActiveField = z.boolean({ invalid_type_error: 'must be true or false' }).openapi({
  description: 'false pauses the endpoint; true resumes it (what was skipped meanwhile is not sent again)',
});

export const CreateWebhookRequest = z
  .object({
    workspace_id: z.string().min(1).max(64).optional().openapi({ description: "The workspace whose events it receives; default the token's", example: 'ws_01jd3k8xq7m2c4v9b0n6t5r8ya' }),
    url: UrlField,
    events: EventsField,
    description: DescriptionField.default(''),
    active: ActiveField.default(true),
  })
  .strict()
  .openapi('PlatformCreateWebhookRequest');

export const PatchWebhookRequest = z
  .object({ url: UrlField.optional(), events: EventsField.optional(), description: DescriptionField.optional(), active: ActiveField.optional() })
  .strict()
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: 'at least one of url, events, description, active is required' })
  .openapi('PlatformPatchWebhookRequest');

export const ListWebhooksQuery = PlatformPageQuery.extend({
  workspace_id: z.string().max(64).optional().openapi({ description: "The workspace whose endpoints to list; default the token's" }),
});

export const DeliveriesQuery = PlatformPageQuery.extend({
  status: z.enum(DELIVERY_STATUSES).optional().openapi({ description: 'Only deliveries with this status' }),
});
export type DeliveriesQuery = z.infer<typeof DeliveriesQuery>;

const endpointShape = {
  id: webhookId,
  workspace_id: z.string(),
  environment: z.enum(['live', 'test']).openapi({ description: "The registering token's environment: the endpoint receives that environment's events only" }),
  url: z.string(),
  events: z.array(z.enum(PLATFORM_EVENT_TYPES)),
  description: z.string(),
  active: z.boolean().openapi({ description: 'false while paused (by hand, or after the fifth failed attempt of a delivery)' }),
  paused_reason: z.enum(['manual', 'delivery_failed']).nullable().openapi({ description: "Why it is paused: 'manual' (active: false by hand) or 'delivery_failed'; null while active" }),
  paused_at: z.string().datetime().nullable(),
  created_at: z.string().datetime(),
  updated_at: z.string().datetime(),
};

export const Webhook = z.object(endpointShape).openapi('PlatformWebhook');
export type Webhook = z.infer<typeof Webhook>;

export const CreatedWebhook = z
  .object({ ...endpointShape, secret: z.string().openapi({ description: 'The signing secret (`whsec_…`): shown only in this answer', example: 'whsec_…' }) })
  .openapi('PlatformCreatedWebhook');

export const RotatedWebhookSecret = z
  .object({
    ...endpointShape,
    secret: z.string().openapi({ description: 'The new signing secret: shown only in this answer', example: 'whsec_…' }),
    previous_secret_expires_at: z.string().datetime().openapi({ description: 'Until then deliveries also carry the replaced secret\'s signatures (24 h); then only the new one' }),
  })
  .openapi('PlatformRotatedWebhookSecret');

export const WebhookList = PlatformListSchema(Webhook).openapi('PlatformWebhookList');

export const WebhookAttempt = z
  .object({
    attempt: z.number().int().openapi({ description: '1-based; a redelivery continues the numbering' }),
    scheduled_at: z.string().datetime(),
    started_at: z.string().datetime(),
    status_code: z.number().int().nullable().openapi({ description: "The receiver's status; null when it never answered" }),
    latency_ms: z.number().int().nullable(),
    error: z.string().nullable().openapi({ description: 'Why the attempt failed; null on success' }),
  })
  .openapi('PlatformWebhookAttempt');
export type WebhookAttempt = z.infer<typeof WebhookAttempt>;

export const WebhookDelivery = z
  .object({
    id: deliveryId.openapi({ description: 'The envelope id (`webhook-id`), the same on every attempt' }),
    event: z.enum(PLATFORM_EVENT_TYPES),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.number().int(),
    created_at: z.string().datetime(),
    completed_at: z.string().datetime().nullable(),
    payload: z.record(z.unknown()).openapi({ description: 'The envelope as sent' }),
    attempt_log: z.array(WebhookAttempt),
  })
  .openapi('PlatformWebhookDelivery');
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const WebhookDeliveryList = PlatformListSchema(WebhookDelivery).openapi('PlatformWebhookDeliveryList');

// The /platform/v1/webhooks paths in the OpenAPI document, from the schemas above.

const admins = 'Admins only (403 for other roles).';
const hidden = "404 also for an endpoint of a workspace out of the token's reach, or deleted.";
const idParams = z.object({ id: webhookId });

registry.registerPath({
  method: 'post',
  path: '/platform/v1/webhooks',
  summary: 'Register a webhook endpoint (the signing secret is shown once)',
  description:
    `${admins} HTTPS to a public address only (400 otherwise). At most ${MAX_PLATFORM_ENDPOINTS_PER_WORKSPACE} endpoints per workspace (409). ` +
    'Deliveries carry X-Service-Signature and the Standard Webhooks headers; after the fifth failed attempt of a delivery the endpoint is paused and the admins are emailed.',
  security,
  request: jsonBody(CreateWebhookRequest),
  responses: { 201: json(CreatedWebhook, 'the endpoint, with its one-time secret'), ...errorResponses(400, 403, 404, 409) },
});

registry.registerPath({
  method: 'get',
  path: '/platform/v1/webhooks',
  summary: "A workspace's webhook endpoints, oldest first (never a secret)",
  description: admins,
  security,
  request: { query: ListWebhooksQuery },
  responses: { 200: json(WebhookList, 'a page of endpoints'), ...errorResponses(400, 403, 404) },
});

registry.registerPath({
  method: 'get',
  path: '/platform/v1/webhooks/{id}',
  summary: 'A webhook endpoint',
  description: `${admins} ${hidden}`,
  security,
  request: { params: idParams },
  responses: { 200: json(Webhook, 'the endpoint'), ...errorResponses(403, 404) },
});

registry.registerPath({
  method: 'patch',
  path: '/platform/v1/webhooks/{id}',
  summary: 'Change url, events, description or active (pause; resume without replaying what was skipped)',
  description: `${admins} The same rules as registration. ${hidden}`,
  security,
  request: { params: idParams, ...jsonBody(PatchWebhookRequest) },
  responses: { 200: json(Webhook, 'the endpoint as changed'), ...errorResponses(400, 403, 404) },
});

registry.registerPath({
  method: 'delete',
  path: '/platform/v1/webhooks/{id}',
  summary: 'Remove a webhook endpoint (deliveries still retrying stop)',
  description: `${admins} ${hidden}`,
  security,
  request: { params: idParams },
  responses: { 204: { description: 'removed' }, ...errorResponses(403, 404) },
});

registry.registerPath({
  method: 'post',
  path: '/platform/v1/webhooks/{id}/rotate-secret',
  summary: 'Rotate the signing secret (the new one is shown once; both are signed with for 24 h)',
  description:
    `${admins} For 24 h deliveries carry both signatures: \`webhook-signature\` lists \`v1,<new> v1,<old>\`, ` +
    '`X-Service-Signature` is keyed with the new secret and `X-Service-Signature-Previous` with the old one; then only the new one. ' +
    `A second rotation within the 24 h keeps only the secret it replaces as the old one. ${hidden}`,
  security,
  request: { params: idParams },
  responses: { 200: json(RotatedWebhookSecret, 'the endpoint, with its new one-time secret'), ...errorResponses(403, 404) },
});

registry.registerPath({
  method: 'get',
  path: '/platform/v1/webhooks/{id}/deliveries',
  summary: "The endpoint's delivery log (last 7 days), newest first, each with every attempt",
  description: `${admins} ${hidden}`,
  security,
  request: { params: idParams, query: DeliveriesQuery },
  responses: { 200: json(WebhookDeliveryList, 'a page of deliveries'), ...errorResponses(400, 403, 404) },
});

registry.registerPath({
  method: 'post',
  path: '/platform/v1/webhooks/{id}/deliveries/{delivery_id}/redeliver',
  summary: 'Send a finished delivery again on the full platform schedule (same evt_ id; attempts continue)',
  description:
    `${admins} 409 while it is still being sent or while the endpoint is paused; 404 outside the 7-day log; ` +
    '503 when it could not be started (nothing changed).',
  security,
  request: { params: idParams.extend({ delivery_id: deliveryId }) },
  responses: { 202: json(WebhookDelivery, 'the delivery, pending again'), ...errorResponses(403, 404, 409, 503) },
});

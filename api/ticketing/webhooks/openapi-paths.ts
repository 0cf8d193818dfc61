// The /v1/webhooks paths in the OpenAPI document, from the schemas the routes validate with
// (kept apart from schema.ts only for length).
import { errorResponses, json, jsonBody as body, registry, security } from '../openapi-registry';
import {
  CreatedWebhookEndpoint,
  CreateWebhookBody,
  DeliveriesQuery,
  DeliveryParams,
  ListWebhooksQuery,
  MAX_ENDPOINTS_PER_WORKSPACE,
  PatchWebhookBody,
  TestWebhookBody,
  WebhookDelivery,
  WebhookDeliveryPage,
  WebhookEndpoint,
  WebhookIdParams,
  WebhookList,
} from './schema';

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
  summary: 'Change url, events, description or active (pause/resume)',
  description: `${scope} The same rules as registration. The secret cannot be changed: delete and recreate to rotate it. ${hidden}`,
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
    '409 `delivery_in_progress` while it is pending, 409 `webhook_paused` for a paused endpoint, 404 `delivery_not_found` ' +
    'outside the 7-day log, 503 when the delivery could not be started (nothing changed).',
  security,
  request: { params: DeliveryParams },
  responses: { 202: json(WebhookDelivery, 'The delivery, pending again'), ...errorResponses(404, 409, 503) },
});

registry.registerPath({
  method: 'post',
  path: '/v1/webhooks/{id}/test',
  summary: 'Send a synthetic test event now and report the attempt',
  description:
    `${scope} One signed attempt with sample data (ids contain \`_test_\`), no retries; waits up to 35 s for it. ` +
    '202 when the attempt is still running after that. 409 `webhook_paused` for a paused endpoint.',
  security,
  request: { params: WebhookIdParams, body: { required: false, content: { 'application/json': { schema: TestWebhookBody } } } },
  responses: {
    200: json(WebhookDelivery, 'The test delivery with its attempt'),
    202: json(WebhookDelivery, 'Still running; see the delivery log'),
    ...errorResponses(400, 404, 409, 503),
  },
});

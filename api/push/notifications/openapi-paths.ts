// The notification endpoints in the /api/v1 OpenAPI document, from the route schemas.
import { API_KEY_ONLY, errorResponses, registry, USER_OR_API_KEY } from '../openapi';
import { SendNotificationBody, SendNotificationResponse, TrackBody } from './schema';

registry.registerPath({
  method: 'post',
  path: '/api/v1/notifications/send',
  summary: 'Send a push to up to 1,000 devices of an app (queued; pushed by the `push` worker)',
  description:
    'Unknown, inactive and repeated device ids are rejected. One notificationId per queued device, in the order of the ' +
    'accepted deviceIds; the device receives it in the push data (`notificationId`). Nothing is sent before the answer.',
  security: USER_OR_API_KEY,
  request: { body: { required: true, content: { 'application/json': { schema: SendNotificationBody } } } },
  responses: {
    202: { description: 'queued', content: { 'application/json': { schema: SendNotificationResponse } } },
    ...errorResponses(404, 503),
  },
});

for (const [path, what] of [
  ['/api/v1/notifications/track-delivery', 'delivered'],
  ['/api/v1/notifications/track-opened', 'opened (and so delivered)'],
] as const) {
  registry.registerPath({
    method: 'post',
    path,
    summary: `Report a notification ${what} on the device (API key only; a repeat counts once)`,
    security: API_KEY_ONLY,
    request: { body: { required: true, content: { 'application/json': { schema: TrackBody } } } },
    responses: {
      204: { description: 'recorded' },
      ...errorResponses(404),
    },
  });
}


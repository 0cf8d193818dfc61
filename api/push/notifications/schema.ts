// POST /notifications/send and the track endpoints: the zod schemas the routes validate
// with, registered in the /api/v1 OpenAPI document.
import { z } from '../../zod';
import { API_KEY_ONLY, errorResponses, registry, USER_OR_API_KEY } from '../openapi';

/** The spec: "up to 1000 per call". */
export const MAX_DEVICES_PER_SEND = 1000;

/** FCM refuses a message over 4,096 bytes; title, body, deepLink and customData must fit in it. */
export const MAX_PAYLOAD_BYTES = 4096;

/**
 * customData keys the push services or our payload reserve: FCM refuses `from`,
 * `notification`, `message_type` and keys starting `google.` or `gcm.`; `notificationId`,
 * `campaignId` and `deepLink` are the keys we add ourselves.
 */
const RESERVED = /^(from|notification|message_type|collapse_key|notificationId|campaignId|deepLink|google\..*|gcm\..*)$/;

export const CustomData = z
  .record(z.union([z.string(), z.number(), z.boolean(), z.null()]))
  .superRefine((data, ctx) => {
    for (const key of Object.keys(data)) {
      if (RESERVED.test(key)) ctx.addIssue({ code: 'custom', path: [key], message: `'${key}' is a reserved key` });
      if (!key.length) ctx.addIssue({ code: 'custom', message: 'keys must not be empty' });
    }
  })
  .openapi({ description: 'Flat key → string, number, boolean or null; sent as the push data (values as strings)', example: { level: '12' } });

export const SendNotificationBody = z
  .object({
    appId: z.string().uuid(),
    deviceIds: z
      .array(z.string().min(1).max(100))
      .min(1)
      .max(MAX_DEVICES_PER_SEND, `at most ${MAX_DEVICES_PER_SEND} devices per call`)
      .openapi({ description: 'Device ids of the app; unknown, inactive and repeated ids are rejected (counted in `rejected`)' }),
    title: z.string().trim().min(1).max(256),
    body: z.string().trim().min(1).max(2048),
    deepLink: z.string().max(2048).nullish(),
    customData: CustomData.nullish(),
  })
  .superRefine((b, ctx) => {
    const bytes = Buffer.byteLength(JSON.stringify([b.title, b.body, b.deepLink ?? '', b.customData ?? {}]));
    if (bytes > MAX_PAYLOAD_BYTES) {
      ctx.addIssue({ code: 'custom', path: ['customData'], message: `title, body, deepLink and customData take ${bytes} bytes; a push holds at most ${MAX_PAYLOAD_BYTES}` });
    }
  })
  .openapi('SendNotificationRequest');
export type SendNotificationBody = z.infer<typeof SendNotificationBody>;

export const SendNotificationResponse = z
  .object({
    notificationIds: z.array(z.string().uuid()).openapi({ description: 'One per queued device, in the order of the accepted deviceIds' }),
    queued: z.number().int(),
    rejected: z.number().int(),
  })
  .openapi('SendNotificationResponse');

export const TrackBody = z.object({ notificationId: z.string().uuid() }).openapi('TrackNotificationRequest');

// The OpenAPI paths of the resource, from the schemas above.

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

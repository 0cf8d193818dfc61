// Devices of the push API (the push spec): request and response schemas, and their
// OpenAPI paths. Platform values are `Android` and `iOS`, accepted in any letter case
// (docs/push.md); deviceMetadata is a flat object of at most
// MAX_METADATA_KEYS keys whose values are strings, numbers, booleans or null, so that
// segment filters (deviceMetadata.<key>) address every value.
import { z } from '../../zod';
import { PageQuery, PageSchema, MAX_PAGE_SIZE } from '../../kit/pagination';
import { text, uuidField as uuid, uuidParam } from '../../kit/fields';
import { PLATFORMS } from '../../../lib/push/platform';
import { registry, API_KEY_ONLY, USER_OR_API_KEY, errorResponses } from '../openapi';
import { json, jsonBody } from '../../kit/openapi';

export const MAX_METADATA_KEYS = 50;
export const MAX_METADATA_KEY_LENGTH = 100;
export const MAX_METADATA_STRING = 1000;
export const MAX_DEVICE_TOKEN = 4096;
export const MAX_USER_ID = 255;


/** `Android` / `iOS` in any letter case, answered in that spelling. */
export const Platform = z
  .string()
  .transform((v, ctx) => {
    const p = PLATFORMS.find((x) => x.toLowerCase() === v.toLowerCase());
    if (!p) ctx.addIssue({ code: z.ZodIssueCode.custom, message: `must be one of ${PLATFORMS.join(', ')} (any letter case)` });
    return p ?? z.NEVER;
  })
  .openapi({ type: 'string', example: 'Android', description: 'Android or iOS, in any letter case' });

const MetadataValue = z.union([text(MAX_METADATA_STRING), z.number().finite(), z.boolean(), z.null()]);
export const DeviceMetadata = z
  .record(text(MAX_METADATA_KEY_LENGTH).refine((k) => k.length > 0, 'keys must not be empty'), MetadataValue)
  .refine((m) => Object.keys(m).length <= MAX_METADATA_KEYS, `at most ${MAX_METADATA_KEYS} keys`)
  .openapi({
    description: `A flat object: at most ${MAX_METADATA_KEYS} keys of up to ${MAX_METADATA_KEY_LENGTH} characters; values are strings (up to ${MAX_METADATA_STRING} characters), numbers, booleans or null`,
    example: { country: 'US', language: 'en', appVersion: '2.4.1', subscriptionTier: 'premium' },
  });

const UserId = text(MAX_USER_ID).nullable().openapi({ description: "the caller's own id of the device's user", example: 'player-42' });

export const RegisterDeviceBody = z
  .object({
    appId: uuid().optional().openapi({ description: "the API key's app (the default); another app is a 403" }),
    deviceToken: text(MAX_DEVICE_TOKEN, { notBlank: true }).openapi({ example: 'fcm-token-abc123' }),
    platform: Platform,
    userId: UserId.optional(),
    deviceMetadata: DeviceMetadata.optional(),
  })
  .strict()
  .openapi('RegisterDeviceRequest');

export const UpdateDeviceBody = z
  .object({ userId: UserId.optional(), deviceMetadata: DeviceMetadata.optional() })
  .strict()
  .openapi('UpdateDeviceRequest');

export const ListDevicesQuery = PageQuery.extend({
  appId: uuid(),
  platform: Platform.optional(),
  userId: text(MAX_USER_ID).optional(),
});

export const DeviceIdParams = z.object({ deviceId: uuidParam() });

export const DeviceResponse = registry.register(
  'Device',
  z.object({
    id: z.string().openapi({ format: 'uuid' }),
    appId: z.string().openapi({ format: 'uuid' }),
    deviceToken: z.string(),
    platform: z.enum(PLATFORMS),
    userId: z.string().nullable(),
    deviceMetadata: z.record(z.union([z.string(), z.number(), z.boolean()]).nullable()),
    isActive: z.boolean(),
    lastSeenAt: z.string().openapi({ format: 'date-time' }),
    createdAt: z.string().openapi({ format: 'date-time' }),
  }),
);
export type DeviceResponse = z.infer<typeof DeviceResponse>;

export const DevicePage = registry.register('DevicePage', PageSchema(DeviceResponse));

// The OpenAPI paths of the resource, from the schemas above.

const ApiKeyOnly = 'Auth: API key (`Authorization: ApiKey <key>`) only';

registry.registerPath({
  method: 'post',
  path: '/api/v1/devices/register',
  summary: 'Register a device (upsert by app + device token; call it on every launch)',
  description:
    `${ApiKeyOnly}. A known token keeps its id, becomes active again and gets lastSeenAt now, ` +
    'the platform, userId and deviceMetadata given (an omitted userId or deviceMetadata keeps the stored one).',
  tags: ['Devices'],
  security: API_KEY_ONLY,
  request: jsonBody(RegisterDeviceBody),
  responses: { 200: json(DeviceResponse, 'the device'), ...errorResponses(400, 404) },
});

registry.registerPath({
  method: 'get',
  path: '/api/v1/devices',
  summary: "A page of an app's devices, oldest first",
  description: `pageSize is 1 to ${MAX_PAGE_SIZE} (default 20); above it is a 400.`,
  tags: ['Devices'],
  security: USER_OR_API_KEY,
  request: { query: ListDevicesQuery },
  responses: { 200: json(DevicePage, 'a page of devices'), ...errorResponses(400, 404) },
});

registry.registerPath({
  method: 'get',
  path: '/api/v1/devices/{deviceId}',
  summary: 'One device',
  tags: ['Devices'],
  security: USER_OR_API_KEY,
  request: { params: DeviceIdParams },
  responses: { 200: json(DeviceResponse, 'the device'), ...errorResponses(404) },
});

registry.registerPath({
  method: 'put',
  path: '/api/v1/devices/{deviceId}',
  summary: "Change a device's userId and/or deviceMetadata",
  description: `${ApiKeyOnly}. userId null clears it; deviceMetadata replaces the stored object.`,
  tags: ['Devices'],
  security: API_KEY_ONLY,
  request: { params: DeviceIdParams, ...jsonBody(UpdateDeviceBody) },
  responses: { 200: json(DeviceResponse, 'the device as changed'), ...errorResponses(400, 404) },
});

registry.registerPath({
  method: 'delete',
  path: '/api/v1/devices/{deviceId}',
  summary: 'Delete a device',
  tags: ['Devices'],
  security: USER_OR_API_KEY,
  request: { params: DeviceIdParams },
  responses: { 204: { description: 'deleted' }, ...errorResponses(404) },
});

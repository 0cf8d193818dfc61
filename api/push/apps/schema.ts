// Apps and their push credentials: the request and response schemas, and their OpenAPI paths.
import { z } from '../../zod';
import { canonicalPlatform, PLATFORMS, type Platform } from '../../../lib/push/platform';
import { json, jsonBody } from '../../kit/openapi';
import { uuidParam } from '../../kit/fields';
import { errorResponses, registry, USER_OR_API_KEY } from '../openapi';

/** `Android` or `iOS` in any letter case; the canonical spelling after parsing. */
export const PlatformInput = z
  .string()
  .max(20)
  .refine((v) => canonicalPlatform(v) !== null, { message: `must be one of ${PLATFORMS.join(', ')} (any letter case)` })
  .transform((v) => canonicalPlatform(v) as Platform)
  .openapi({ description: 'Android or iOS, any letter case', example: 'Android' });

const name = z.string().trim().min(1).max(200);

export const CreateAppRequest = z
  .object({
    name: name.openapi({ example: 'Space Miners' }),
    bundleId: z.string().trim().min(1).max(255).openapi({ example: 'com.studio.miners' }),
    platform: PlatformInput,
  })
  .openapi('PushCreateAppRequest');

export const UpdateAppRequest = z.object({ name: name.openapi({ example: 'Space Miners 2' }) }).openapi('PushUpdateAppRequest');

export const FcmConfigRequest = z
  .object({
    serviceAccountJson: z
      .string()
      .min(2)
      .max(20_000)
      .openapi({ description: 'The service-account JSON document (as a string): project_id, client_email and an RSA private_key are checked' }),
  })
  .openapi('PushFcmConfigRequest');

export const ApnsConfigRequest = z
  .object({
    keyId: z.string().trim().regex(/^[A-Z0-9]{10}$/, 'must be the 10-character key id Apple shows').openapi({ example: 'ABC123DEFG' }),
    teamId: z.string().trim().regex(/^[A-Z0-9]{10}$/, 'must be the 10-character team id').openapi({ example: 'TEAM123456' }),
    bundleId: z.string().trim().min(1).max(255).openapi({ example: 'com.studio.miners' }),
    p8KeyContent: z.string().min(1).max(10_000).openapi({ description: 'The .p8 auth key text (PEM, EC P-256)' }),
    useSandbox: z.boolean().openapi({ description: 'true: api.sandbox.push.apple.com' }),
  })
  .openapi('PushApnsConfigRequest');

export const App = z
  .object({
    id: z.string().uuid(),
    name: z.string(),
    bundleId: z.string(),
    platform: z.enum(PLATFORMS),
    hasFcmConfig: z.boolean(),
    hasApnsConfig: z.boolean(),
    createdAt: z.string().datetime(),
    updatedAt: z.string().datetime(),
  })
  .openapi('PushApp');
export type App = z.infer<typeof App>;

// The OpenAPI paths of the resource, from the schemas above.

const appId = z.object({ appId: uuidParam('The app id') });
const userOnly = 'Needs a user access token: an API key gets 403 FORBIDDEN.';

registry.registerPath({
  method: 'get',
  path: '/api/v1/apps',
  summary: "The company's apps (an API key sees its own app)",
  security: USER_OR_API_KEY,
  responses: { 200: json(z.array(App), 'array of App'), ...errorResponses() },
});

registry.registerPath({
  method: 'post',
  path: '/api/v1/apps',
  summary: 'Create an app',
  description: userOnly,
  security: USER_OR_API_KEY,
  request: jsonBody(CreateAppRequest),
  responses: { 201: json(App, 'the new app'), ...errorResponses() },
});

registry.registerPath({
  method: 'get',
  path: '/api/v1/apps/{appId}',
  summary: 'One app',
  description: "Another company's app is a 404; an API key of another app of the company a 403.",
  security: USER_OR_API_KEY,
  request: { params: appId },
  responses: { 200: json(App, 'the app'), ...errorResponses(404) },
});

registry.registerPath({
  method: 'put',
  path: '/api/v1/apps/{appId}',
  summary: 'Rename an app',
  description: userOnly,
  security: USER_OR_API_KEY,
  request: { params: appId, ...jsonBody(UpdateAppRequest) },
  responses: { 200: json(App, 'the app'), ...errorResponses(404) },
});

registry.registerPath({
  method: 'delete',
  path: '/api/v1/apps/{appId}',
  summary: 'Delete an app with its devices, API keys, segments and sends',
  description: userOnly,
  security: USER_OR_API_KEY,
  request: { params: appId },
  responses: { 204: { description: 'deleted' }, ...errorResponses(404) },
});

registry.registerPath({
  method: 'put',
  path: '/api/v1/apps/{appId}/fcm-config',
  summary: "Set the app's FCM service account (stored encrypted, never returned)",
  description: userOnly,
  security: USER_OR_API_KEY,
  request: { params: appId, ...jsonBody(FcmConfigRequest) },
  responses: { 200: json(App, 'the app, hasFcmConfig true'), ...errorResponses(404) },
});

registry.registerPath({
  method: 'put',
  path: '/api/v1/apps/{appId}/apns-config',
  summary: "Set the app's APNs token-auth key (stored encrypted, never returned)",
  description: userOnly,
  security: USER_OR_API_KEY,
  request: { params: appId, ...jsonBody(ApnsConfigRequest) },
  responses: { 200: json(App, 'the app, hasApnsConfig true'), ...errorResponses(404) },
});

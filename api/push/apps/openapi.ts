import { json, jsonBody } from '../../kit/openapi';
import { z } from '../../zod';
import { errorResponses, registry, USER_OR_API_KEY } from '../openapi';
import { ApnsConfigRequest, App, CreateAppRequest, FcmConfigRequest, UpdateAppRequest } from './schema';

const appId = z.object({ appId: z.string().openapi({ description: 'The app id (uuid)', example: '6f1c…' }) });
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

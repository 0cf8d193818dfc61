// An app's API keys: the request and response schemas, and their OpenAPI paths.
import { z } from '../../zod';
import { json, jsonBody } from '../../kit/openapi';
import { uuidParam } from '../../kit/fields';
import { errorResponses, registry, USER_OR_API_KEY } from '../openapi';

export const CreateApiKeyRequest = z
  .object({
    appId: z.string().uuid().openapi({ description: 'The app the key is for (its only scope)' }),
    name: z.string().trim().min(1).max(200).openapi({ example: 'iOS SDK' }),
  })
  .openapi('PushCreateApiKeyRequest');

export const ListApiKeysQuery = z.object({ appId: z.string().uuid().openapi({ description: 'The app whose keys to list' }) });

export const ApiKey = z
  .object({
    id: z.string().uuid(),
    appId: z.string().uuid(),
    name: z.string(),
    prefix: z.string().openapi({ description: 'The leading characters of the key', example: 'pk_3fQ9xK2' }),
    createdAt: z.string().datetime(),
    lastUsedAt: z.string().datetime().nullable(),
  })
  .openapi('PushApiKey');
export type ApiKey = z.infer<typeof ApiKey>;

export const CreatedApiKey = ApiKey.extend({
  key: z.string().openapi({ description: 'The whole key: shown only in this answer. Send it as `Authorization: ApiKey <key>`' }),
}).openapi('PushCreatedApiKey');

// The OpenAPI paths of the resource, from the schemas above.

const userOnly = 'Needs a user access token: an API key gets 403 FORBIDDEN.';

registry.registerPath({
  method: 'post',
  path: '/api/v1/api-keys',
  summary: 'Create an API key for an app (the key is shown once)',
  description: userOnly,
  security: USER_OR_API_KEY,
  request: jsonBody(CreateApiKeyRequest),
  responses: { 201: json(CreatedApiKey, 'the key, with its one-time secret'), ...errorResponses(404) },
});

registry.registerPath({
  method: 'get',
  path: '/api/v1/api-keys',
  summary: "An app's live API keys (no secrets)",
  description: userOnly,
  security: USER_OR_API_KEY,
  request: { query: ListApiKeysQuery },
  responses: { 200: json(z.array(ApiKey), 'array of API key'), ...errorResponses(404) },
});

registry.registerPath({
  method: 'delete',
  path: '/api/v1/api-keys/{keyId}',
  summary: 'Revoke an API key (refused from the next request on)',
  description: userOnly,
  security: USER_OR_API_KEY,
  request: { params: z.object({ keyId: uuidParam('The key id') }) },
  responses: { 204: { description: 'revoked' }, ...errorResponses(404) },
});

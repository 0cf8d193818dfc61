import { json, jsonBody } from '../../kit/openapi';
import { z } from '../../zod';
import { errorResponses, registry, USER_OR_API_KEY } from '../openapi';
import { ApiKey, CreateApiKeyRequest, CreatedApiKey, ListApiKeysQuery } from './schema';

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
  request: { params: z.object({ keyId: z.string().openapi({ description: 'The key id (uuid)' }) }) },
  responses: { 204: { description: 'revoked' }, ...errorResponses(404) },
});

// The /api/v1 OpenAPI document. Each push resource registers its own paths from its
// schemas in its folder's openapi.ts (imported by its routes), with one of the security
// requirements below; the document is built on the first GET /api/v1/openapi.json.
import { createApiDocs } from '../kit/openapi';
import { PUSH_CODES } from '../kit/envelopes';
import { z } from '../zod';

const docs = createApiDocs({
  errorSchema: z.object({
    message: z.string(),
    code: z.string().openapi({ example: 'VALIDATION_FAILED' }),
    errors: z
      .record(z.array(z.string()))
      .optional()
      .openapi({ description: 'On 400 (VALIDATION_FAILED): the messages per field' }),
  }),
  codes: PUSH_CODES,
  bearerDescription: 'A user access token (RS256 JWT, audience push-api) from POST /auth/login, /auth/register or /auth/refresh',
  info: {
    title: 'Push Notification Service API',
    version: '1.0.0',
    description:
      'The push API: push notifications (accounts, apps, API keys, devices, segments, sends, analytics, event triggers). ' +
      'Rate limits per the spec; every response carries X-RateLimit-Limit/Remaining/Reset.',
  },
});

const apiKeyScheme = docs.registry.registerComponent('securitySchemes', 'ApiKey', {
  type: 'apiKey',
  in: 'header',
  name: 'Authorization',
  description: 'An app API key: `Authorization: ApiKey <key>` (scoped to one app; created with POST /api-keys)',
});

/** Security requirements: a user token, an API key, or either (the spec's default). */
export const USER_ONLY = [{ [docs.bearerAuth.name]: [] as string[] }];
export const API_KEY_ONLY = [{ [apiKeyScheme.name]: [] as string[] }];
export const USER_OR_API_KEY = [...USER_ONLY, ...API_KEY_ONLY];

export const { registry, errorResponses, ErrorEnvelope } = docs;
export const pushOpenApiDocument = docs.document;

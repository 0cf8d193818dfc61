// The /v1 instance of the kit's OpenAPI registry: every ticketing schema.ts registers
// its paths here, from the same zod schemas the routes validate with, so the document
// served at /v1/openapi.json cannot drift.
import { createApiDocs } from '../kit/openapi';
import { z } from '../zod';

const docs = createApiDocs({
  errorSchema: z.object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      status: z.number().int(),
      requestId: z.string().openapi({ example: 'req_01jd3k8…' }),
      details: z
        .record(z.array(z.string()))
        .optional()
        .openapi({ description: 'validation_error only: the messages per field path, e.g. {"title": ["Required"]}' }),
    }),
  }),
  codes: {
    400: 'validation_error',
    401: 'unauthorized',
    403: 'forbidden',
    404: 'not found',
    409: 'conflict (also idempotency_key_reused, idempotency_request_in_progress)',
    413: 'payload_too_large',
    422: 'invalid_status_transition',
    429: 'rate_limit_exceeded',
    503: 'service_unavailable (Retry-After)',
  },
  bearerDescription: 'An access token from POST /v1/auth/token, or a workspace secret key (sk_live_, sk_test_, sdk_).',
  info: {
    title: 'Support Ticketing Service API',
    version: '1.0.0',
    description: 'The ticketing API: game-support tickets, players, agents, API keys and access tokens, webhooks.',
  },
});

export const { registry, bearerAuth, ErrorEnvelope, errorResponses, security } = docs;
export const openApiDocument = docs.document;
export { json, jsonBody } from '../kit/openapi';

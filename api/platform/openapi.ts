// The /platform/v1 OpenAPI 3.0 document (the platform spec, "Versioning"). Each platform
// resource registers its own paths from its schemas in its folder's schema.ts (imported by
// its routes); the document is built on the first GET /platform/v1/openapi.json.
import { createApiDocs } from '../kit/openapi';
import { z } from '../zod';

const docs = createApiDocs({
  errorSchema: z.object({
    error: z.object({
      code: z.string().openapi({ example: 'validation_failed' }),
      message: z.string(),
      status: z.number().int(),
      request_id: z.string().openapi({ example: 'req_01jd3k8…' }),
      details: z.record(z.array(z.string())).optional().openapi({ description: 'validation_failed: messages per field' }),
    }),
  }),
  codes: {
    400: 'validation_failed',
    401: 'unauthorized',
    403: 'forbidden',
    404: 'not_found',
    409: 'conflict',
    410: 'gone',
    413: 'payload_too_large',
    429: 'rate_limited (Retry-After: seconds)',
    503: 'service_unavailable (Retry-After)',
  },
  bearerDescription:
    'A platform token: `Authorization: Bearer service_live_…` (production data) or `service_test_…` (sandbox data). ' +
    'Created with POST /platform/v1/auth/tokens; scoped to one workspace, acting with its creator\'s role.',
  info: {
    title: 'Support Platform API',
    version: '1.0.0',
    description:
      'The platform API: tickets, workspaces, users, tokens, webhooks, automations and analytics (docs/platform.md). snake_case fields; errors as ' +
      '`{"error": {code, message, status, request_id, details?}}`; lists as `{data, page, per_page, total, next_page}`. ' +
      'Reads 120 and writes 60 requests a minute per token (rolling 60 s); every authenticated answer carries ' +
      'X-RateLimit-Limit/Remaining/Reset, and a 429 carries Retry-After in seconds. Idempotency-Key is accepted on every POST.',
  },
});

export const { registry, errorResponses, security, ErrorEnvelope } = docs;
export const platformOpenApiDocument = docs.document;

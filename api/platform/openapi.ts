// The /platform/v1 OpenAPI document. Only /health is served so far; the platform API's
// resources will register their paths here from their schemas.
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
    413: 'payload_too_large',
    429: 'rate_limited',
    503: 'service_unavailable (Retry-After)',
  },
  info: {
    title: 'Support Platform API',
    version: '1.0.0',
    description: 'The platform API: the general support platform. Only /health is served so far.',
  },
});

docs.registry.registerPath({
  method: 'get',
  path: '/platform/v1/health',
  summary: 'Liveness of the API process',
  security: [],
  responses: { 200: { description: 'up', content: { 'application/json': { schema: z.object({ status: z.literal('ok') }) } } } },
});

export const { registry, errorResponses, security } = docs;
export const platformOpenApiDocument = docs.document;

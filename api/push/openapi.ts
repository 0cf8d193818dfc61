// The /api/v1 OpenAPI document. Only /health is served until the push service's issue
// lands; its routes will register here from their schemas.
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
  info: {
    title: 'Push Notification Service API',
    version: '1.0.0',
    description: 'Document 3: push notifications. Only /health is served so far.',
  },
});

docs.registry.registerPath({
  method: 'get',
  path: '/api/v1/health',
  summary: 'Liveness of the API process',
  security: [],
  responses: { 200: { description: 'up', content: { 'application/json': { schema: z.object({ status: z.literal('ok') }) } } } },
});

export const { registry, errorResponses, security } = docs;
export const pushOpenApiDocument = docs.document;

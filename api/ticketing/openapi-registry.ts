import { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from '../zod';

/**
 * Every ticketing schema.ts registers its paths here, from the same zod schemas the
 * routes validate with, so the document served at /v1/openapi.json cannot drift.
 */
export const registry = new OpenAPIRegistry();

export const bearerAuth = registry.registerComponent('securitySchemes', 'bearerAuth', {
  type: 'http',
  scheme: 'bearer',
  description: 'An access token from POST /v1/auth/token, or a workspace secret key (sk_live_, sk_test_, sdk_).',
});

export const ErrorEnvelope = registry.register(
  'Error',
  z.object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      status: z.number().int(),
      requestId: z.string().openapi({ example: 'req_01jd3k8…' }),
    }),
  }),
);

/** Error responses shared by every authenticated operation. */
export function errorResponses(...statuses: number[]) {
  const descriptions: Record<number, string> = {
    400: 'validation_error',
    401: 'unauthorized',
    403: 'forbidden',
    404: 'not found',
    409: 'conflict',
    413: 'payload_too_large',
    422: 'invalid_status_transition',
    429: 'rate_limit_exceeded',
  };
  const out: Record<string, { description: string; content: { 'application/json': { schema: typeof ErrorEnvelope } } }> = {};
  for (const s of [401, 403, 429, ...statuses]) {
    out[String(s)] = { description: descriptions[s] ?? 'error', content: { 'application/json': { schema: ErrorEnvelope } } };
  }
  return out;
}

export const security = [{ [bearerAuth.name]: [] }];

/** A JSON response with its description. */
export const json = <T extends z.ZodTypeAny>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

/** A required JSON request body. */
export const jsonBody = <T extends z.ZodTypeAny>(schema: T) => ({
  body: { required: true, content: { 'application/json': { schema } } },
});

// The accounts endpoints and health in the /api/v1 document.
import { json, jsonBody } from '../../kit/openapi';
import { z } from '../../zod';
import { errorResponses, registry, ErrorEnvelope, USER_ONLY } from '../openapi';
import { AuthResult, LoginRequest, RefreshRequest, RegisterRequest, User } from './schema';

const err = (description: string) => ({ description, content: { 'application/json': { schema: ErrorEnvelope } } });
const limited = { 429: err('RATE_LIMITED: 20 requests a minute per client IP on POST /auth/*') };

const Health = z
  .object({
    status: z.enum(['ok', 'unavailable']),
    version: z.string(),
    timestamp: z.string().datetime(),
    checks: z.object({ database: z.enum(['ok', 'down']), redis: z.enum(['ok', 'down']) }),
    message: z.string().optional(),
    code: z.string().optional(),
  })
  .openapi('PushHealth');

registry.registerPath({
  method: 'get',
  path: '/api/v1/health',
  summary: 'Health of the API and its dependencies (no auth)',
  security: [],
  responses: {
    200: json(Health, 'every dependency answers'),
    429: err('RATE_LIMITED'),
    503: json(Health, 'SERVICE_UNAVAILABLE: a dependency is down (named in checks and message); Retry-After'),
  },
});

registry.registerPath({
  method: 'post',
  path: '/api/v1/auth/register',
  summary: 'Create an account (a company of one and its owner)',
  security: [],
  request: jsonBody(RegisterRequest),
  responses: { 201: json(AuthResult, 'the new account, signed in'), 409: err('CONFLICT: the email has an account'), ...limited },
});

registry.registerPath({
  method: 'post',
  path: '/api/v1/auth/login',
  summary: 'Sign in with email and password',
  security: [],
  request: jsonBody(LoginRequest),
  responses: { 200: json(AuthResult, 'signed in'), 401: err('UNAUTHORIZED: wrong email or password (the same answer for both)'), ...limited },
});

registry.registerPath({
  method: 'post',
  path: '/api/v1/auth/refresh',
  summary: 'Exchange a refresh token for a new auth result (the old refresh token is consumed)',
  security: [],
  request: jsonBody(RefreshRequest),
  responses: {
    200: json(AuthResult, 'a new access and refresh token'),
    401: err('UNAUTHORIZED: unknown, expired, revoked or already used (which revokes its family)'),
    ...limited,
  },
});

registry.registerPath({
  method: 'get',
  path: '/api/v1/auth/me',
  summary: 'The signed-in user',
  security: USER_ONLY,
  responses: { 200: json(User, 'the user'), ...errorResponses() },
});

// Accounts (register, login, refresh, me): the request and response schemas, and their
// OpenAPI paths.
import { json, jsonBody } from '../../kit/openapi';
import { z } from '../../zod';
import { errorResponses, registry, ErrorEnvelope, USER_ONLY } from '../openapi';

const email = z
  .string()
  .trim()
  .toLowerCase()
  .min(3)
  .max(254)
  .email()
  .openapi({ example: 'dev@studio.example' });
// argon2 hashes any length; the cap keeps a login from being a hashing workload
const password = z.string().min(8).max(256).openapi({ example: 'correct horse battery' });

export const RegisterRequest = z
  .object({ email, password, name: z.string().trim().min(1).max(200).openapi({ example: 'Robin' }) })
  .openapi('PushRegisterRequest');

export const LoginRequest = z
  .object({ email, password: z.string().min(1).max(256) })
  .openapi('PushLoginRequest');

export const RefreshRequest = z
  .object({ refreshToken: z.string().min(1).max(512).openapi({ description: 'The opaque refresh token of the last auth result' }) })
  .openapi('PushRefreshRequest');

const setupToken = z.string().min(1).max(512).openapi({ description: 'The raw token of the set-password link (from the email or the operator)' });

export const SetupTokenRequest = z.object({ token: setupToken }).openapi('PushSetupTokenRequest');
export const SetPasswordRequest = z.object({ token: setupToken, password }).openapi('PushSetPasswordRequest');

export const SetupTokenInfo = z
  .object({
    email: z.string().nullable(),
    fullName: z.string().nullable(),
    companyName: z.string().nullable(),
    expiresAt: z.string().datetime().nullable(),
    isValid: z.boolean().openapi({ description: 'false for an unknown, expired, used or replaced token (every other field null)' }),
  })
  .openapi('PushSetupTokenInfo');

export const User = z
  .object({
    id: z.string().uuid(),
    email: z.string(),
    name: z.string(),
    createdAt: z.string().datetime(),
  })
  .openapi('PushUser');

export const AuthResult = z
  .object({
    accessToken: z.string().openapi({ description: 'RS256 JWT, audience push-api, valid 15 minutes' }),
    refreshToken: z.string().openapi({ description: 'Opaque, single use: each refresh answers a new one' }),
    expiresAt: z.string().datetime().openapi({ description: 'When the access token expires' }),
    user: User,
  })
  .openapi('PushAuthResult');

// The OpenAPI paths of the resource, from the schemas above.

const err = (description: string) => ({ description, content: { 'application/json': { schema: ErrorEnvelope } } });
const limited = { 429: err('RATE_LIMITED: 20 requests a minute per client IP on POST /auth/*') };

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

registry.registerPath({
  method: 'post',
  path: '/api/v1/auth/setup-token',
  summary: 'Who a set-password link is for, and whether it still works',
  description: 'An unknown, expired, used or replaced token answers isValid false with every other field null (the same path for all).',
  tags: ['Trial onboarding'],
  security: [],
  request: jsonBody(SetupTokenRequest),
  responses: { 200: json(SetupTokenInfo, 'the token info'), 400: err('VALIDATION_FAILED'), ...limited },
});

registry.registerPath({
  method: 'post',
  path: '/api/v1/auth/set-password',
  summary: "Set the approved owner's password with the link's token (single use); signs in",
  tags: ['Trial onboarding'],
  security: [],
  request: jsonBody(SetPasswordRequest),
  responses: { 200: json(AuthResult, 'signed in'), 400: err('VALIDATION_FAILED: a bad password, or an invalid, expired, used or replaced token (errors.token)'), ...limited },
});

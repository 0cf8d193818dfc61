import { z } from '../../zod';
import { SCOPES } from '../access';
import { errorResponses, ErrorEnvelope, registry, security } from '../openapi-registry';

/** Scopes an sdk key may carry: client-safe, and only over the player's own tickets. */
export const SDK_SCOPES = ['tickets:read', 'tickets:write'] as const;

const id = (example: string) => z.string().trim().min(1).max(100).openapi({ example });

export const TokenRequest = registry.register(
  'AccessTokenRequest',
  z.object({
    apiKey: z.string().min(1).max(512).openapi({ description: 'A server key (sk_live_ or sk_test_)', example: 'sk_test_…' }),
    organizationId: id('org_01jd3k8…'),
  }),
);

export const TokenResponse = registry.register(
  'AccessTokenResponse',
  z.object({
    accessToken: z.string().openapi({ description: 'RS256 JWT' }),
    expiresIn: z.number().int().openapi({ example: 3600 }),
    tokenType: z.literal('Bearer'),
  }),
);

export const ApiKeyMetadata = registry.register(
  'ApiKeyMetadata',
  z.object({
    id: z.string().openapi({ example: 'key_01jd3k8…' }),
    organizationId: z.string(),
    name: z.string(),
    type: z.enum(['server', 'sdk']),
    environment: z.enum(['live', 'test']),
    prefix: z.string().openapi({ description: 'The readable start of the key, e.g. sk_live_AbC123' }),
    scopes: z.array(z.string()),
    workspaceId: z.string().nullable().openapi({ description: 'null: every workspace of the organization in its environment' }),
    playerId: z.string().nullable().openapi({ description: 'sdk keys: the player the key acts for' }),
    lastUsedAt: z.string().datetime().nullable(),
    createdAt: z.string().datetime(),
    revokedAt: z.string().datetime().nullable(),
  }),
);

export const CreatedApiKey = registry.register(
  'CreatedApiKey',
  ApiKeyMetadata.extend({ key: z.string().openapi({ description: 'The secret key; shown only in this response' }) }),
);

export const CreateApiKeyRequest = registry.register(
  'CreateApiKeyRequest',
  z
    .object({
      name: z.string().trim().min(1).max(100),
      type: z.enum(['server', 'sdk']).default('server'),
      scopes: z
        .array(z.enum(SCOPES))
        .min(1)
        .transform((s) => [...new Set(s)]),
      environment: z.enum(['live', 'test']).optional().openapi({
        description: "Default: the workspace's environment when workspaceId is given, else the caller's",
      }),
      workspaceId: id('ws_01jd3k8…').optional().openapi({ description: 'Binds the key to one workspace; required for sdk keys' }),
      playerId: z.string().trim().min(1).max(255).optional().openapi({
        description: "sdk keys only, required for them: the game's own id of the player the key acts for",
        example: 'plr_8812',
      }),
    })
    .superRefine((b, ctx) => {
      if (b.type === 'sdk') {
        if (!b.workspaceId) ctx.addIssue({ code: 'custom', path: ['workspaceId'], message: 'Required for sdk keys' });
        if (!b.playerId) ctx.addIssue({ code: 'custom', path: ['playerId'], message: 'Required for sdk keys' });
        const bad = b.scopes.filter((s) => !(SDK_SCOPES as readonly string[]).includes(s));
        if (bad.length) {
          ctx.addIssue({ code: 'custom', path: ['scopes'], message: `sdk keys may only have ${SDK_SCOPES.join(', ')} (not ${bad.join(', ')})` });
        }
      } else if (b.playerId !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['playerId'], message: 'Only sdk keys act for a player' });
      }
    }),
);
export type CreateApiKeyBody = z.infer<typeof CreateApiKeyRequest>;

export const OrganizationParams = z.object({ organization_id: id('org_01jd3k8…') });
export const KeyParams = OrganizationParams.extend({ key_id: id('key_01jd3k8…') });

const json = <T extends z.ZodTypeAny>(schema: T) => ({ content: { 'application/json': { schema } } });
const rateLimitHeaders = z.object({
  'X-RateLimit-Limit': z.string().openapi({ description: 'Requests allowed per rolling 60 s window for this key' }),
  'X-RateLimit-Remaining': z.string().openapi({ description: 'Requests left in the current window' }),
  'X-RateLimit-Reset': z.string().openapi({ description: 'Seconds until the oldest request in the window leaves it' }),
});

registry.registerPath({
  method: 'post',
  path: '/v1/auth/token',
  summary: 'Exchange a server key for an access token',
  description: 'Public. sdk_ keys cannot be exchanged (400); an unknown, revoked or other-organization key is 401.',
  security: [],
  request: { body: { required: true, ...json(TokenRequest) } },
  responses: {
    200: { description: 'Access token, valid 3600 s', headers: rateLimitHeaders, ...json(TokenResponse) },
    ...errorResponses(400),
  },
});

registry.registerPath({
  method: 'get',
  path: '/v1/.well-known/jwks.json',
  summary: 'Public keys that verify access tokens (RS256)',
  security: [],
  responses: {
    200: {
      description: 'JSON Web Key Set',
      ...json(z.object({ keys: z.array(z.object({ kty: z.string(), kid: z.string(), n: z.string(), e: z.string() }).passthrough()) })),
    },
  },
});

registry.registerPath({
  method: 'get',
  path: '/v1/auth/me',
  summary: 'Metadata of the API key behind the current access token or key',
  security,
  responses: { 200: { description: 'API key metadata', headers: rateLimitHeaders, ...json(ApiKeyMetadata) }, ...errorResponses() },
});

registry.registerPath({
  method: 'post',
  path: '/v1/organizations/{organization_id}/api-keys',
  summary: 'Create an API key (scope admin:all)',
  security,
  request: { params: OrganizationParams, body: { required: true, ...json(CreateApiKeyRequest) } },
  responses: {
    201: { description: 'The key with its secret, shown only once', headers: rateLimitHeaders, ...json(CreatedApiKey) },
    ...errorResponses(400),
  },
});

registry.registerPath({
  method: 'get',
  path: '/v1/organizations/{organization_id}/api-keys',
  summary: 'List API keys, revoked ones included (scope admin:all); never secrets',
  security,
  request: { params: OrganizationParams },
  responses: {
    200: { description: 'Key metadata, newest first', headers: rateLimitHeaders, ...json(z.object({ data: z.array(ApiKeyMetadata) })) },
    ...errorResponses(),
  },
});

registry.registerPath({
  method: 'delete',
  path: '/v1/organizations/{organization_id}/api-keys/{key_id}',
  summary: 'Revoke an API key immediately and permanently (scope admin:all)',
  security,
  request: { params: KeyParams },
  responses: {
    204: { description: 'Revoked (also when it already was)' },
    404: { description: 'api_key_not_found', ...json(ErrorEnvelope) },
    ...errorResponses(),
  },
});

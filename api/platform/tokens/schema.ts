// Platform tokens (the platform spec, "Authentication"; docs/platform.md, "Tokens"): the
// request and response schemas, and their OpenAPI paths.
import { z } from '../../zod';
import { json, jsonBody } from '../../kit/openapi';
import { text } from '../../kit/fields';
import { TOKEN_EXPIRY_DAYS } from '../../../domain/platform/windows.rules';
import { errorResponses, registry, security } from '../openapi';
import { PlatformListSchema, PlatformPageQuery } from '../paging';

const tokenId = z.string().openapi({ example: 'tok_01jd3k8xq7m2c4v9b0n6t5r8ya' });

export const CreateTokenRequest = z
  .object({
    name: text(200, { required: true, notBlank: true }).openapi({ example: 'CI exporter' }),
    workspace_id: z.string().min(1).max(64).openapi({ description: 'The workspace the token is scoped to (one the caller works in)', example: 'ws_01jd3k8xq7m2c4v9b0n6t5r8ya' }),
    environment: z.enum(['live', 'test']).openapi({ description: '`live` reads and writes production data (`service_live_…`), `test` sandbox data (`service_test_…`)' }),
    expires_in_days: z
      .union([z.literal(30), z.literal(60), z.literal(90)])
      .nullable()
      .optional()
      .openapi({ description: `Days until the token expires: ${TOKEN_EXPIRY_DAYS.join(', ')}; omitted or null: never`, type: 'integer', enum: [...TOKEN_EXPIRY_DAYS] } as object),
  })
  .strict()
  .openapi('PlatformCreateTokenRequest');

export const ListTokensQuery = PlatformPageQuery.extend({
  workspace_id: z.string().max(64).optional().openapi({ description: 'Only the tokens of this workspace' }),
});

export const Token = z
  .object({
    id: tokenId,
    name: z.string(),
    workspace_id: z.string(),
    environment: z.enum(['live', 'test']),
    prefix: z.string().openapi({ description: 'The leading characters of the secret', example: 'service_test_3fQ9xK' }),
    created_by: z.string().openapi({ description: 'The user who created it; the token acts with their role' }),
    status: z.enum(['active', 'expired', 'revoked']),
    created_at: z.string().datetime(),
    expires_at: z.string().datetime().nullable(),
    last_used_at: z.string().datetime().nullable(),
    revoked_at: z.string().datetime().nullable(),
  })
  .openapi('PlatformToken');
export type Token = z.infer<typeof Token>;

export const CreatedToken = Token.extend({
  token: z.string().openapi({ description: 'The secret: shown only in this answer. Send it as `Authorization: Bearer <token>`' }),
}).openapi('PlatformCreatedToken');

registry.registerPath({
  method: 'post',
  path: '/platform/v1/auth/tokens',
  summary: 'Create a token for yourself in a workspace (the secret is shown once; with expires_in_days it is refused from expires_at on)',
  security,
  request: jsonBody(CreateTokenRequest),
  responses: { 201: json(CreatedToken, 'the token, with its one-time secret'), ...errorResponses(400, 404, 409) },
});

registry.registerPath({
  method: 'get',
  path: '/platform/v1/auth/tokens',
  summary: 'Tokens without secrets: your own; an admin also every token of their workspace, an organisation admin every token of the organisation',
  security,
  request: { query: ListTokensQuery },
  responses: { 200: json(PlatformListSchema(Token), 'a page of tokens'), ...errorResponses(400) },
});

registry.registerPath({
  method: 'delete',
  path: '/platform/v1/auth/tokens/{id}',
  summary: 'Revoke a token: your own, or as an admin one in your reach (refused from the next request on; anything else is a 404)',
  security,
  request: { params: z.object({ id: tokenId }) },
  responses: { 204: { description: 'revoked' }, ...errorResponses(404) },
});

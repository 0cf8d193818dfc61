// Platform users (the platform spec, "Resources and their fields": User; docs/platform.md,
// "Users"): the request and response schemas, and their OpenAPI paths.
import { z } from '../../zod';
import { json, jsonBody } from '../../kit/openapi';
import { email, text } from '../../kit/fields';
import { PLATFORM_ROLES } from '../../../domain/platform/types';
import { ACTIVATION_LINK_DAYS } from '../../../domain/platform/activation-token';
import { USER_REACTIVATION_DAYS } from '../../../domain/platform/windows.rules';
import { errorResponses, registry, security } from '../openapi';
import { PlatformListSchema, PlatformPageQuery } from '../paging';
import { CreatedToken } from '../tokens/schema';

const userId = z.string().openapi({ example: 'usr_01jd3k8xq7m2c4v9b0n6t5r8ya' });
const role = z.enum(['agent', 'manager', 'admin'] as const satisfies readonly (typeof PLATFORM_ROLES)[number][]).openapi({ description: '`agent`, `manager` or `admin` (organisation-wide)' });
const workspaceId = z.string().min(1).max(64).openapi({ example: 'ws_01jd3k8xq7m2c4v9b0n6t5r8ya' });

export const User = z
  .object({
    id: userId,
    name: z.string().nullable().openapi({ description: 'null once erased' }),
    email: z.string().nullable().openapi({ description: 'lower-cased; null once erased' }),
    role,
    is_org_admin: z.boolean().openapi({ description: 'an organisation admin: an admin of every workspace of the organisation' }),
    status: z.enum(['invited', 'active', 'deactivated', 'erased']),
    workspace_ids: z.array(z.string()).openapi({ description: 'the workspaces the user is a member of' }),
    created_at: z.string().datetime(),
    last_active_at: z.string().datetime().nullable().openapi({ description: "the last use of one of the user's tokens (at most once a minute)" }),
    deactivated_at: z.string().datetime().nullable().openapi({ description: `reactivatable for ${USER_REACTIVATION_DAYS} days after it, then erased` }),
  })
  .openapi('PlatformUser');
export type User = z.infer<typeof User>;

export const ListUsersQuery = PlatformPageQuery.extend({
  workspace_id: z.string().max(64).optional().openapi({ description: "Only the members of this workspace (one out of the caller's reach: an empty page)" }),
});

export const InviteUserRequest = z
  .object({
    email: email().transform((v) => v.toLowerCase()).openapi({ example: 'sam@studio.example' }),
    name: text(200, { required: true }).openapi({ example: 'Sam Rivera' }),
    role,
    workspace_id: workspaceId.optional().openapi({ description: "The workspace the user joins (default: the token's); one the caller reaches" }),
  })
  .strict()
  .openapi('PlatformInviteUserRequest');

export const ActivateUserRequest = z
  .object({ token: z.string().min(1).max(200).openapi({ description: 'The `token` of the activation link from the invitation email' }) })
  .strict()
  .openapi('PlatformActivateUserRequest');

export const ActivatedUser = z
  .object({ user: User, token: CreatedToken.openapi({ description: "The user's first token (`service_test_…`, in the invitation's workspace); its secret is shown only here" }) })
  .openapi('PlatformActivatedUser');

export const ChangeUserRequest = z
  .object({
    name: text(200, { required: true }).optional(),
    role: role.optional().openapi({ description: 'admins only; the last active admin cannot be demoted (409)' }),
  })
  .strict()
  .refine((b) => b.name !== undefined || b.role !== undefined, { message: 'give name or role', path: ['name'] })
  .openapi('PlatformChangeUserRequest', { minProperties: 1 });

export const DeactivatedUser = User.extend({
  unassigned_tickets: z.number().int().openapi({ description: "The user's open tickets (open or pending) being unassigned, each through its own workflow" }),
}).openapi('PlatformDeactivatedUser');

const idParams = { params: z.object({ id: userId }) };

registry.registerPath({
  method: 'get',
  path: '/platform/v1/users',
  summary: "The organisation's users (an organisation admin: all of them; anyone else: the members of their token's workspace)",
  security,
  request: { query: ListUsersQuery },
  responses: { 200: json(PlatformListSchema(User), 'a page of users'), ...errorResponses(400) },
});

registry.registerPath({
  method: 'post',
  path: '/platform/v1/users/invite',
  summary: `Invite a user: admins any role, managers agents only; the invitee is emailed a single-use activation link valid ${ACTIVATION_LINK_DAYS} days`,
  description:
    'A new email: an `invited` user. An invited one: a fresh link (the older ones stop working), 201 again. An active user with that email: 409; ' +
    'a deactivated one: 409 (reactivate them instead). The link is `{APP_URL}/platform/activate?token=…`; its `token` goes to POST /platform/v1/users/activate.',
  security,
  request: jsonBody(InviteUserRequest),
  responses: { 201: json(User, 'the invited user'), ...errorResponses(400, 403, 404, 409) },
});

registry.registerPath({
  method: 'post',
  path: '/platform/v1/users/activate',
  summary: 'Activate an invited user with the token of their link (no bearer token): the user and a first service_test_ token, its secret shown once',
  description: 'Single use. An unknown, used, voided or expired link: the same 400 validation_failed. Failed attempts are throttled per client address (429).',
  security: [],
  request: jsonBody(ActivateUserRequest),
  responses: { 201: json(ActivatedUser, 'the active user and their first token'), ...errorResponses(400, 429) },
});

registry.registerPath({
  method: 'patch',
  path: '/platform/v1/users/{id}',
  summary: "Change a user's role (admins) or name (the user themself or an admin)",
  security,
  request: { ...idParams, ...jsonBody(ChangeUserRequest) },
  responses: { 200: json(User, 'the user'), ...errorResponses(400, 403, 404, 409) },
});

registry.registerPath({
  method: 'delete',
  path: '/platform/v1/users/{id}',
  summary: 'Deactivate a user (admins; not yourself, not the last admin): their tokens are revoked and their open tickets unassigned',
  description: `Reactivatable for ${USER_REACTIVATION_DAYS} days (POST /platform/v1/users/{id}/reactivate); then their name and email are erased.`,
  security,
  request: idParams,
  responses: { 200: json(DeactivatedUser, 'the deactivated user and how many open tickets are being unassigned'), ...errorResponses(403, 404, 409, 410) },
});

registry.registerPath({
  method: 'post',
  path: '/platform/v1/users/{id}/reactivate',
  summary: `Reactivate a user within ${USER_REACTIVATION_DAYS} days of their deactivation (admins); their old tokens stay revoked`,
  security,
  request: idParams,
  responses: { 200: json(User, 'the active user'), ...errorResponses(403, 404, 409, 410) },
});

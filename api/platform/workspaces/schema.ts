// Platform workspaces (the platform spec, "Resources" and "Endpoints"; docs/platform.md,
// "Workspaces"): the request and response schemas, and their OpenAPI paths.
import { z } from '../../zod';
import { json, jsonBody } from '../../kit/openapi';
import { text } from '../../kit/fields';
import { PLATFORM_TICKET_PRIORITIES } from '../../../domain/platform/types';
import { SLA_MAX_MINUTES } from '../../../domain/platform/sla-defaults.rules';
import { WORKSPACE_DELETION_GRACE_DAYS } from '../../../domain/platform/windows.rules';
import { canonicalLanguageTag, canonicalTimeZone } from '../../../domain/platform/workspace-settings.rules';
import { errorResponses, registry, security } from '../openapi';
import { PlatformListSchema, PlatformPageQuery } from '../paging';

const workspaceId = z.string().openapi({ example: 'ws_01jd3k8xq7m2c4v9b0n6t5r8ya' });

const name = text(200, { required: true }).openapi({ example: 'EU Support' });
const timezone = z
  .string()
  .max(64, 'must be at most 64 characters')
  .refine((v) => canonicalTimeZone(v) !== null, 'must be an IANA time zone such as Europe/Paris or UTC')
  .openapi({ description: 'An IANA time zone; answered in its canonical spelling', example: 'Europe/Paris' });
const defaultLanguage = z
  .string()
  .max(35, 'must be at most 35 characters')
  .refine((v) => canonicalLanguageTag(v) !== null, 'must be a BCP 47 language tag such as en or pt-BR')
  .openapi({ description: 'A BCP 47 language tag; answered in its canonical spelling', example: 'pt-BR' });

export const CreateWorkspaceRequest = z
  .object({
    name,
    timezone: timezone.optional().openapi({ description: 'An IANA time zone (default UTC)' }),
    default_language: defaultLanguage.optional().openapi({ description: 'A BCP 47 language tag (default en)' }),
  })
  .strict()
  .openapi('PlatformCreateWorkspaceRequest');

export const UpdateWorkspaceRequest = z
  .object({ name: name.optional(), timezone: timezone.optional(), default_language: defaultLanguage.optional() })
  .strict()
  .refine((b) => Object.keys(b).length > 0, 'give at least one of name, timezone, default_language')
  .openapi('PlatformUpdateWorkspaceRequest', { minProperties: 1 });

/** DELETE takes `{"confirm": true}` as its body or `?confirm=true` (contracts.md, "Platform API"). */
export const DeleteWorkspaceBody = z.object({ confirm: z.boolean().optional() }).strict();
export const DeleteWorkspaceQuery = z.object({
  confirm: z.enum(['true', 'false']).optional().openapi({ description: 'Must be `true` (or send the body `{"confirm": true}`)' }),
});

const slaMinutes = (what: string) =>
  z
    .number()
    .int('must be a whole number of minutes')
    .min(1, 'must be at least 1')
    .max(SLA_MAX_MINUTES, `must be at most ${SLA_MAX_MINUTES} (a year)`)
    .openapi({ description: `Minutes from a ticket's creation to its ${what}` });

const SlaPolicy = z
  .object({
    priority: z.enum(PLATFORM_TICKET_PRIORITIES as [string, ...string[]]),
    first_response_minutes: slaMinutes('first agent reply'),
    resolution_minutes: slaMinutes('resolution'),
  })
  .strict()
  .openapi('PlatformSlaPolicy');

/** PUT /workspaces/{id}/sla-policies: one policy per priority (domain/platform/sla-defaults.rules.ts checks the rest). */
export const SetSlaPoliciesRequest = z
  .object({
    policies: z
      .array(SlaPolicy)
      .length(PLATFORM_TICKET_PRIORITIES.length, `must hold exactly ${PLATFORM_TICKET_PRIORITIES.length} policies, one per priority`)
      .openapi({ description: `Exactly one policy per priority (${PLATFORM_TICKET_PRIORITIES.join(', ')}); first_response_minutes must not exceed resolution_minutes` }),
  })
  .strict()
  .openapi('PlatformSetSlaPoliciesRequest');

export const ListWorkspacesQuery = PlatformPageQuery;

const Plan = z
  .object({
    name: z.string().openapi({ example: 'standard' }),
    seats: z.number().int(),
    limits: z.object({ reads_per_minute: z.number().int(), writes_per_minute: z.number().int(), max_page_size: z.number().int() }),
  })
  .openapi('PlatformPlan');

export const Workspace = z
  .object({
    id: workspaceId,
    name: z.string(),
    timezone: z.string(),
    default_language: z.string(),
    plan: Plan,
    status: z.enum(['active', 'pending_deletion']).openapi({ description: '`pending_deletion`: disabled, removed at `purge_at` unless restored' }),
    deletion_requested_at: z.string().datetime().nullable(),
    purge_at: z.string().datetime().nullable().openapi({ description: `When a workspace pending deletion is removed with all its data (${WORKSPACE_DELETION_GRACE_DAYS} days after the request); null otherwise` }),
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
  })
  .openapi('PlatformWorkspace');
export type Workspace = z.infer<typeof Workspace>;

export const WorkspaceDetail = Workspace.extend({
  channels: z.array(z.object({ id: z.string(), type: z.enum(['email', 'web', 'chat', 'in_game', 'api']), name: z.string() })),
  sla_policies: z
    .array(z.object({ priority: z.enum(PLATFORM_TICKET_PRIORITIES as [string, ...string[]]), first_response_minutes: z.number().int(), resolution_minutes: z.number().int() }))
    .openapi({ description: 'The active SLA policy of each priority: the stored ones (PUT /sla-policies), else the documented defaults' }),
  agent_count: z.number().int().openapi({ description: 'Active users who work in the workspace: its members and the organisation admins' }),
}).openapi('PlatformWorkspaceDetail');
export type WorkspaceDetail = z.infer<typeof WorkspaceDetail>;

const idParams = { params: z.object({ id: workspaceId }) };

registry.registerPath({
  method: 'get',
  path: '/platform/v1/workspaces',
  summary: "The workspaces the token reaches (an organisation admin: every one of the organisation; anyone else: the token's)",
  security,
  request: { query: ListWorkspacesQuery },
  responses: { 200: json(PlatformListSchema(Workspace), 'a page of workspaces, oldest first'), ...errorResponses(400) },
});

registry.registerPath({
  method: 'post',
  path: '/platform/v1/workspaces',
  summary: 'Create a workspace (organisation admins only); its creator works in it',
  security,
  request: jsonBody(CreateWorkspaceRequest),
  responses: { 201: json(WorkspaceDetail, 'the new workspace, with one channel of each type'), ...errorResponses(400, 403, 409) },
});

registry.registerPath({
  method: 'get',
  path: '/platform/v1/workspaces/{id}',
  summary: 'A workspace with its channels, active SLA policies and agent count',
  security,
  request: idParams,
  responses: { 200: json(WorkspaceDetail, 'the workspace'), ...errorResponses(404) },
});

registry.registerPath({
  method: 'patch',
  path: '/platform/v1/workspaces/{id}',
  summary: 'Change the name, timezone or default language (admins who reach the workspace)',
  security,
  request: { ...idParams, ...jsonBody(UpdateWorkspaceRequest) },
  responses: { 200: json(WorkspaceDetail, 'the workspace after the change'), ...errorResponses(400, 403, 404, 409) },
});

registry.registerPath({
  method: 'delete',
  path: '/platform/v1/workspaces/{id}',
  summary: `Delete a workspace (organisation admins only): disabled at once, removed with all its data after ${WORKSPACE_DELETION_GRACE_DAYS} days`,
  description:
    'Requires `?confirm=true` or the JSON body `{"confirm": true}`; anything else is a 400. The workspace becomes ' +
    '`pending_deletion` at once: its tokens answer 403 outside /workspaces until it is restored. A second DELETE while ' +
    'it is pending answers the same 202 with the same `purge_at`.',
  security,
  request: { ...idParams, query: DeleteWorkspaceQuery },
  responses: { 202: json(WorkspaceDetail, 'scheduled for deletion'), ...errorResponses(400, 403, 404) },
});

registry.registerPath({
  method: 'post',
  path: '/platform/v1/workspaces/{id}/restore',
  summary: 'Restore a workspace within its deletion grace (organisation admins only; an extension of the spec)',
  security,
  request: idParams,
  responses: { 200: json(WorkspaceDetail, 'the workspace, active again'), ...errorResponses(403, 404, 409) },
});

registry.registerPath({
  method: 'put',
  path: '/platform/v1/workspaces/{id}/sla-policies',
  summary: "Replace the workspace's SLA policies, one per priority (admins who reach the workspace)",
  security,
  request: { ...idParams, ...jsonBody(SetSlaPoliciesRequest) },
  responses: { 200: json(WorkspaceDetail, 'the workspace, its sla_policies the stored ones'), ...errorResponses(400, 403, 404, 409) },
});

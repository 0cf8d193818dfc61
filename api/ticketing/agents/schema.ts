// Agents are not in the ticketing spec beyond the expanded `assignee` ({ id, name, avatarUrl });
// this resource is our own addition so tickets can be assigned (docs/players.md).
import { z } from '../../zod';
import { errorResponses, registry, security, json } from '../openapi-registry';
import { intQuery } from '../../kit/pagination';
import { email, prefixedIdParam, text } from '../../kit/fields';
import { workspaceIdParam } from '../fields';

const WorkspaceIdField = workspaceIdParam().openapi({
  description: 'Required unless the API key is bound to one workspace.',
  example: 'ws_01jd3k8xq7',
});

const httpUrl = () =>
  z
    .string()
    .max(2048, 'must be at most 2048 characters')
    .url('must be a valid URL')
    // `new URL` accepts javascript:, data: and the like; an avatar is an image link.
    .refine((u) => /^https?:\/\//i.test(u), 'must be an http or https URL');

export const CreateAgentBody = z
  .object({
    workspaceId: WorkspaceIdField.optional(),
    name: text(200, { required: true }).openapi({ example: 'Ada Agent' }),
    email: email().nullable().optional(),
    avatarUrl: httpUrl().nullable().optional().openapi({ example: 'https://avatars.example.com/ada.png' }),
  })
  .strict()
  .openapi('CreateAgentRequest');

export const ListAgentsQuery = z.object({
  workspaceId: WorkspaceIdField.optional(),
  limit: intQuery(25, 1, 100),
  offset: intQuery(0, 0, Number.MAX_SAFE_INTEGER),
});

export const AgentIdParams = z.object({ id: prefixedIdParam('agt') });

export const AgentResponse = registry.register(
  'Agent',
  z.object({
    id: z.string().openapi({ example: 'agt_01jd3k8xq7m2c4v9b0n6t5r8ya' }),
    workspaceId: z.string(),
    name: z.string(),
    email: z.string().nullable(),
    avatarUrl: z.string().nullable(),
    createdAt: z.string().openapi({ format: 'date-time' }),
  }),
);
export type AgentResponse = z.infer<typeof AgentResponse>;

/** The Agent object of the ticketing spec, as expanded in a ticket's `assignee`. */
export const AssigneeResponse = registry.register(
  'Assignee',
  z.object({ id: z.string(), name: z.string(), avatarUrl: z.string().nullable() }),
);
export type AssigneeResponse = z.infer<typeof AssigneeResponse>;

export const AgentListResponse = registry.register(
  'AgentList',
  z.object({
    data: z.array(AgentResponse),
    pagination: z.object({
      total: z.number().int(),
      limit: z.number().int(),
      offset: z.number().int(),
      hasMore: z.boolean(),
    }),
  }),
);

registry.registerPath({
  method: 'post',
  path: '/v1/agents',
  summary: 'Create an agent',
  description: 'Needs tickets:write; server keys only.',
  security,
  request: { body: { content: { 'application/json': { schema: CreateAgentBody } } } },
  responses: { 201: json(AgentResponse, 'The agent'), ...errorResponses(400) },
});

registry.registerPath({
  method: 'get',
  path: '/v1/agents',
  summary: "List a workspace's agents, oldest first",
  description: 'Needs tickets:read; server keys only.',
  security,
  request: { query: ListAgentsQuery },
  responses: { 200: json(AgentListResponse, 'One page of agents'), ...errorResponses(400) },
});

registry.registerPath({
  method: 'get',
  path: '/v1/agents/{id}',
  summary: 'Get an agent',
  description: 'Needs tickets:read; server keys only. 404 also for an agent in a workspace the key cannot use.',
  security,
  request: { params: AgentIdParams },
  responses: { 200: json(AgentResponse, 'The agent'), ...errorResponses(404) },
});

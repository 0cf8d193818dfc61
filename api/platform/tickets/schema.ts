// Platform tickets (the platform spec, "Resources and their fields", "Endpoints";
// docs/platform.md, "Tickets"): the request and response schemas, and their OpenAPI paths.
import { z } from '../../zod';
import { json, jsonBody } from '../../kit/openapi';
import { email, prefixedIdParam, text } from '../../kit/fields';
import { PLATFORM_TICKET_PRIORITIES, PLATFORM_TICKET_STATUSES } from '../../../domain/platform/types';
import { errorResponses, registry, security } from '../openapi';
import { PlatformListSchema, PlatformPageQuery } from '../paging';

export const MAX_TAGS = 20;
const Status = z.enum(PLATFORM_TICKET_STATUSES as ['open', 'pending', 'resolved', 'closed']);
const Priority = z.enum(PLATFORM_TICKET_PRIORITIES as ['critical', 'high', 'normal', 'low']);
const id = z.string().min(1).max(64);
const tags = z
  .array(z.string().trim().min(1, 'must not be blank').max(64, 'must be at most 64 characters'))
  .max(MAX_TAGS, `at most ${MAX_TAGS} tags`)
  .openapi({ description: `At most ${MAX_TAGS} tags of 1 to 64 characters (trimmed); duplicates are kept once` });
const ticketIdParam = z.object({ id: prefixedIdParam('tkt') });

export const CreateTicketRequest = z
  .object({
    subject: text(500, { required: true }).openapi({ example: 'Cannot log in after the patch' }),
    channel_id: id.openapi({ description: 'One of the workspace\'s channels (GET /workspaces/{id}); another is a 400', example: 'ch_01jd3k8xq7m2c4v9b0n6t5r8ya' }),
    contact_email: email().openapi({ example: 'player@example.com' }),
    body: z.string().max(100_000, 'must be at most 100000 characters').optional(),
    priority: Priority.default('normal'),
    assignee_id: id.nullable().optional().openapi({ description: 'An active user who works in the workspace; another is a 400' }),
    tags: tags.default([]),
  })
  .strict()
  .openapi('PlatformCreateTicketRequest');

export const PatchTicketRequest = z
  .object({
    status: Status.optional().openapi({ description: 'open → pending, resolved, closed; pending → open, resolved, closed; resolved → open, closed; closed is terminal (409)' }),
    priority: Priority.optional(),
    assignee_id: id.nullable().optional().openapi({ description: 'null unassigns' }),
    tags: tags.optional().openapi({ description: 'Replaces the tags' }),
  })
  .strict()
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: 'at least one of status, priority, assignee_id, tags is required' })
  .openapi('PlatformPatchTicketRequest');

export const ReplyRequest = z
  .object({ body: text(100_000, { required: true }).openapi({ example: 'We have reset your session; please try again.' }) })
  .strict()
  .openapi('PlatformReplyRequest');

const dateTime = (what: string) =>
  z.string().datetime({ offset: true, message: 'must be an ISO 8601 date-time' }).optional().openapi({ description: what, example: '2026-11-27T10:00:00Z' });

export const ListTicketsQuery = PlatformPageQuery.extend({
  status: Status.optional(),
  priority: Priority.optional(),
  assignee: z.string().min(1).max(64).optional().openapi({ description: 'A user id, or `none` for unassigned tickets' }),
  tag: z.string().min(1).max(64).optional().openapi({ description: 'Tickets carrying this tag' }),
  channel: z.string().min(1).max(64).optional().openapi({ description: 'A channel id of the workspace' }),
  created_after: dateTime('Created strictly after this instant'),
  created_before: dateTime('Created strictly before this instant'),
});
export type ListTicketsQuery = z.infer<typeof ListTicketsQuery>;

export const Ticket = z
  .object({
    id: z.string().openapi({ example: 'tkt_01jd3k8xq7m2c4v9b0n6t5r8ya' }),
    workspace_id: z.string(),
    channel_id: z.string(),
    subject: z.string(),
    body: z.string(),
    contact_email: z.string(),
    priority: Priority,
    status: Status,
    assignee_id: z.string().nullable(),
    tags: z.array(z.string()),
    created_by: z.string().nullable().openapi({ description: 'The user whose token created it' }),
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
    resolved_at: z.string().datetime().nullable(),
    closed_at: z.string().datetime().nullable(),
  })
  .openapi('PlatformTicket');
export type Ticket = z.infer<typeof Ticket>;

export const Reply = z
  .object({
    id: z.string().openapi({ example: 'rpl_01jd3k8xq7m2c4v9b0n6t5r8ya' }),
    ticket_id: z.string(),
    author_id: z.string().nullable().openapi({ description: 'The user whose token wrote it' }),
    body: z.string(),
    created_at: z.string().datetime(),
  })
  .openapi('PlatformReply');
export type Reply = z.infer<typeof Reply>;

registry.registerPath({
  method: 'post',
  path: '/platform/v1/tickets',
  summary: "Create a ticket in the token's workspace and environment",
  security,
  request: jsonBody(CreateTicketRequest),
  responses: { 201: json(Ticket, 'the ticket (open)'), ...errorResponses(400, 409) },
});

registry.registerPath({
  method: 'get',
  path: '/platform/v1/tickets',
  summary: "The tickets of the token's workspace and environment, newest first (soft-deleted ones hidden)",
  security,
  request: { query: ListTicketsQuery },
  responses: { 200: json(PlatformListSchema(Ticket), 'a page of tickets'), ...errorResponses(400) },
});

registry.registerPath({
  method: 'get',
  path: '/platform/v1/tickets/{id}',
  summary: 'A ticket',
  security,
  request: { params: ticketIdParam },
  responses: { 200: json(Ticket, 'the ticket'), ...errorResponses(404) },
});

registry.registerPath({
  method: 'patch',
  path: '/platform/v1/tickets/{id}',
  summary: 'Change the status (by the transition table), priority, assignee or tags; a closed ticket is a 409',
  security,
  request: { params: ticketIdParam, ...jsonBody(PatchTicketRequest) },
  responses: { 200: json(Ticket, 'the ticket after the change'), ...errorResponses(400, 404, 409) },
});

registry.registerPath({
  method: 'put',
  path: '/platform/v1/tickets/{id}/reply',
  summary: "Add a reply as the token's user (the status does not change); a closed ticket is a 409",
  security,
  request: { params: ticketIdParam, ...jsonBody(ReplyRequest) },
  responses: { 201: json(Reply, 'the reply'), ...errorResponses(400, 404, 409) },
});

registry.registerPath({
  method: 'delete',
  path: '/platform/v1/tickets/{id}',
  summary: 'Soft delete (manager or above): hidden at once, restorable for 30 days, then purged',
  security,
  request: { params: ticketIdParam },
  responses: { 204: { description: 'deleted' }, ...errorResponses(403, 404) },
});

registry.registerPath({
  method: 'post',
  path: '/platform/v1/tickets/{id}/restore',
  summary: 'Restore a soft-deleted ticket within its 30 days (manager or above; an extension of the spec)',
  security,
  request: { params: ticketIdParam },
  responses: { 200: json(Ticket, 'the restored ticket'), ...errorResponses(403, 404, 409, 410) },
});

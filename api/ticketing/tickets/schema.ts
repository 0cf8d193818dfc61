import { intQuery } from '../../kit/pagination';
import { z } from '../../zod';
import { PlayerExpansion } from '../players/schema';
import { AssigneeResponse as Agent } from '../agents/schema';
import { errorResponses, json, jsonBody as body, registry, security } from '../openapi-registry';

export const Status = z.enum(['open', 'in_progress', 'resolved', 'closed']);
export const Priority = z.enum(['low', 'medium', 'high', 'urgent']);
export const Source = z.enum(['api', 'sdk', 'discord', 'steam', 'email']);

const id = z.string().trim().min(1).max(64);
const tags = z.array(z.string().trim().min(1).max(64)).max(50);
const note = z.string().max(10_000);

/** A comma-separated list of enum values (`status=open,resolved`). */
const csvOf = <T extends [string, ...string[]]>(e: z.ZodEnum<T>) =>
  z
    .string()
    .transform((s) => s.split(',').map((v) => v.trim()).filter(Boolean))
    .pipe(z.array(e).min(1))
    .openapi({ type: 'string', description: `comma-separated: ${e.options.join(', ')}` });


export const CreateTicketBody = z
  .object({
    workspaceId: id,
    playerId: id.openapi({ description: "the player's own id (as upserted) or the internal kpl_ id" }),
    title: z.string().trim().min(1).max(255),
    body: z.string().min(1).max(100_000),
    category: z.string().trim().min(1).max(64).optional(),
    priority: Priority.default('medium'),
    source: Source.default('api'),
    metadata: z.record(z.unknown()).default({}),
    tags: tags.default([]),
  })
  .openapi('CreateTicket');

export const ListTicketsQuery = z.object({
  workspaceId: id,
  status: csvOf(Status).optional(),
  priority: csvOf(Priority).optional(),
  category: z.string().max(64).optional(),
  assigneeId: z.string().max(64).optional().openapi({ description: 'an agent id, or `unassigned`' }),
  playerId: z.string().max(64).optional(),
  search: z.string().trim().min(1).max(200).optional(),
  sortBy: z.enum(['createdAt', 'updatedAt', 'priority']).default('createdAt'),
  order: z.enum(['asc', 'desc']).default('desc'),
  limit: intQuery(25, 1, 100),
  offset: intQuery(0, 0, 1_000_000),
  updatedSince: z.string().datetime({ offset: true }).optional().openapi({ description: 'only tickets updated at or after (ISO 8601)' }),
  cursor: z.string().max(512).optional().openapi({ description: 'opaque; from pagination.nextCursor' }),
});

export const PatchTicketBody = z
  .object({
    status: Status.optional(),
    priority: Priority.optional(),
    assigneeId: id.nullable().optional(),
    category: z.string().trim().min(1).max(64).optional(),
    tags: tags.optional(),
    internalNote: note.optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: 'at least one field to change is required' })
  .openapi('PatchTicket');

export const AssignTicketBody = z.object({ agentId: id, note: note.optional() }).openapi('AssignTicket');
export const ResolveTicketBody = z
  .object({ resolutionNote: note.optional(), sendNotification: z.boolean().default(true) })
  .openapi('ResolveTicket');
export const CreateMessageBody = z
  .object({
    authorType: z.enum(['player', 'agent']),
    authorId: id.optional().openapi({ description: "agent id (required for agents); players default to the ticket's player" }),
    body: z.string().min(1).max(100_000),
  })
  .openapi('CreateMessage');

export const Message = z
  .object({ id: z.string(), ticketId: z.string(), authorId: z.string(), authorType: z.string(), body: z.string(), createdAt: z.string() })
  .openapi('Message');
const listItemShape = {
  id: z.string(),
  workspaceId: z.string(),
  playerId: z.string(),
  title: z.string(),
  status: Status,
  priority: Priority,
  category: z.string().nullable(),
  source: Source,
  tags: z.array(z.string()),
  assigneeId: z.string().nullable(),
  aiTriaged: z.boolean(),
  messageCount: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
};
export const TicketListItem = z.object(listItemShape).openapi('TicketListItem');
export const Ticket = z
  .object({
    ...listItemShape,
    body: z.string(),
    metadata: z.record(z.unknown()),
    assignee: Agent.nullable(),
    aiSuggestedCategory: z.string().nullable(),
    aiConfidence: z.number().nullable(),
    resolvedAt: z.string().nullable(),
    closedAt: z.string().nullable(),
  })
  .openapi('Ticket');
export const TicketDetail = Ticket.extend({
  aiSuggestedReply: z.string().nullable(),
  messages: z.array(Message),
  player: PlayerExpansion.nullable(),
  internalNote: z.string().nullable().optional(),
  resolutionNote: z.string().nullable().optional(),
}).openapi('TicketDetail');
const Pagination = z.object({
  total: z.number().int(),
  totalExact: z.boolean().openapi({ description: 'false when total is an estimate (more than 1,000 matches)' }),
  limit: z.number().int(),
  offset: z.number().int(),
  hasMore: z.boolean(),
  nextCursor: z.string().nullable(),
});

const TicketPage = z.object({ data: z.array(TicketListItem), pagination: Pagination });
export const TicketChanges = z.object({ id: z.string(), status: Status, priority: Priority, category: z.string().nullable(), assigneeId: z.string().nullable(), tags: z.array(z.string()), internalNote: z.string().nullable(), updatedAt: z.string() });
export const TicketAssignment = z.object({ id: z.string(), assigneeId: z.string(), assignee: Agent, status: Status, internalNote: z.string().nullable(), updatedAt: z.string() });
export const TicketResolution = z.object({ id: z.string(), status: z.literal('resolved'), resolutionNote: z.string().nullable(), notificationSent: z.boolean(), resolvedAt: z.string(), updatedAt: z.string() });
export type TicketListItem = z.infer<typeof TicketListItem>;
export type Ticket = z.infer<typeof Ticket>;
export type TicketDetail = z.infer<typeof TicketDetail>;
export type Message = z.infer<typeof Message>;
export type TicketPage = z.infer<typeof TicketPage>;
export type TicketChanges = z.infer<typeof TicketChanges>;
export type TicketAssignment = z.infer<typeof TicketAssignment>;
export type TicketResolution = z.infer<typeof TicketResolution>;

const ticketIdParam = z.object({ id: z.string().openapi({ example: 'tkt_01jd…' }) });

registry.registerPath({
  method: 'post', path: '/v1/tickets', tags: ['Tickets'], security, summary: 'Create a ticket for a player',
  request: { ...body(CreateTicketBody), headers: z.object({ 'Idempotency-Key': z.string().optional() }) },
  responses: { 201: json(Ticket, 'the created ticket'), ...errorResponses(400, 404, 503) },
});
registry.registerPath({
  method: 'get', path: '/v1/tickets', tags: ['Tickets'], security, summary: 'List tickets', request: { query: ListTicketsQuery },
  responses: { 200: json(TicketPage, 'a page of tickets'), ...errorResponses(400) },
});
registry.registerPath({
  method: 'get', path: '/v1/tickets/{id}', tags: ['Tickets'], security, summary: 'Get a ticket with messages, player and assignee',
  request: { params: ticketIdParam }, responses: { 200: json(TicketDetail, 'the ticket'), ...errorResponses(404) },
});
registry.registerPath({
  method: 'patch', path: '/v1/tickets/{id}', tags: ['Tickets'], security, summary: 'Update a ticket',
  request: { params: ticketIdParam, ...body(PatchTicketBody) },
  responses: {
    200: json(TicketChanges, 'changed fields'),
    ...errorResponses(400, 404, 409, 422),
  },
});
registry.registerPath({
  method: 'post', path: '/v1/tickets/{id}/assign', tags: ['Tickets'], security, summary: 'Assign a ticket to an agent',
  request: { params: ticketIdParam, ...body(AssignTicketBody) },
  responses: {
    200: json(TicketAssignment, 'assigned'),
    ...errorResponses(400, 404, 409),
  },
});
registry.registerPath({
  method: 'post', path: '/v1/tickets/{id}/resolve', tags: ['Tickets'], security, summary: 'Resolve a ticket',
  request: { params: ticketIdParam, ...body(ResolveTicketBody) },
  responses: {
    200: json(TicketResolution, 'resolved'),
    ...errorResponses(400, 404, 409, 422),
  },
});
registry.registerPath({
  method: 'post', path: '/v1/tickets/{id}/messages', tags: ['Tickets'], security, summary: 'Add a message (a player reply re-opens a resolved ticket)',
  request: { params: ticketIdParam, ...body(CreateMessageBody) },
  responses: { 201: json(Message, 'the message'), ...errorResponses(400, 404, 409) },
});
registry.registerPath({
  method: 'delete', path: '/v1/tickets/{id}', tags: ['Tickets'], security, summary: 'Delete a ticket permanently',
  request: { params: ticketIdParam }, responses: { 204: { description: 'deleted' }, ...errorResponses(404) },
});

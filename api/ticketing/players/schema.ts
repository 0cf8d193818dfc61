// Players (the ticketing spec, Player resource and Players endpoints): the zod schemas that
// validate requests, type the presenters and produce the OpenAPI paths below.
import { z } from '../../zod';
import { errorResponses, registry, security, json } from '../openapi-registry';
import { intQuery } from '../../kit/pagination';
import { ERASED_PREFIX } from '../../../domain/players/rules';
import { email, prefixedIdParam, text } from '../../kit/fields';
import { workspaceIdParam } from '../fields';

export const MAX_METADATA_KEYS = 50;

export const PlayerMetadata = z
  .record(text(100, { required: true }), text(2000))
  .refine((m) => Object.keys(m).length <= MAX_METADATA_KEYS, `must have at most ${MAX_METADATA_KEYS} keys`)
  .openapi({ description: 'String values only; at most 50 keys (key ≤ 100, value ≤ 2000 characters).' });

const PlayerIdField = text(255, { required: true })
  .refine((v) => !v.startsWith(ERASED_PREFIX), `the prefix '${ERASED_PREFIX}' is reserved for erased players`)
  .openapi({ description: "The caller's own player id; with workspaceId the upsert key.", example: 'plr_8812' });

const WorkspaceIdField = workspaceIdParam().openapi({
  description: 'Required unless the API key is bound to one workspace.',
  example: 'ws_01jd3k8xq7',
});

// Unknown fields are a 400 rather than silently dropped, so a typo such as
// `displayname` is reported instead of quietly not updating anything.
export const UpsertPlayerBody = z
  .object({
    workspaceId: WorkspaceIdField.optional(),
    playerId: PlayerIdField,
    displayName: text(255).nullable().optional().openapi({ description: 'null clears it; omitted keeps it' }),
    email: email().nullable().optional().openapi({ description: 'null clears it; omitted keeps it' }),
    metadata: PlayerMetadata.optional().openapi({ description: 'replaces the whole stored object when given' }),
  })
  .strict()
  .openapi('UpsertPlayerRequest');

export const PlayerLookupQuery = z.object({
  workspaceId: WorkspaceIdField.optional(),
  playerId: PlayerIdField,
});

export const PLAYER_TICKET_STATUSES = ['open', 'in_progress', 'resolved', 'closed', 'all'] as const;

export const PlayerTicketsQuery = z.object({
  // `in_progress` is not in the spec's list for this filter but is a ticket status,
  // so it is accepted too (docs/players.md).
  status: z.enum(PLAYER_TICKET_STATUSES).default('all'),
  limit: intQuery(20, 1, 100),
  offset: intQuery(0, 0, Number.MAX_SAFE_INTEGER),
});

export const PlayerIdParams = z.object({ id: prefixedIdParam('kpl') });

export const PlayerResponse = registry.register(
  'Player',
  z.object({
    id: z.string().openapi({ example: 'kpl_01jd3k8xq7m2c4v9b0n6t5r8ya' }),
    playerId: z.string(),
    workspaceId: z.string(),
    displayName: z.string().nullable(),
    email: z.string().nullable(),
    ticketCount: z.number().int(),
    metadata: z.record(z.string()),
    firstSeenAt: z.string().openapi({ format: 'date-time' }),
    lastSeenAt: z.string().openapi({ format: 'date-time' }),
  }),
);
export type PlayerResponse = z.infer<typeof PlayerResponse>;

/** The expanded `player` on single-ticket retrieval (served by the tickets resource). */
export const PlayerExpansion = registry.register(
  'PlayerExpansion',
  z.object({
    id: z.string(),
    displayName: z.string().nullable(),
    email: z.string().nullable(),
    platform: z.string().nullable(),
    steamId: z.string().nullable(),
    accountAge: z.string().nullable(),
    lifetimeSpend: z.number().nullable(),
    loyaltyTier: z.string().nullable(),
  }),
);
export type PlayerExpansion = z.infer<typeof PlayerExpansion>;

export const PlayerTicketItem = z.object({
  id: z.string(),
  title: z.string(),
  status: z.enum(['open', 'in_progress', 'resolved', 'closed']),
  createdAt: z.string().openapi({ format: 'date-time' }),
});
export type PlayerTicketItem = z.infer<typeof PlayerTicketItem>;

export const PlayerTicketsResponse = registry.register(
  'PlayerTickets',
  z.object({ total: z.number().int(), data: z.array(PlayerTicketItem) }),
);

registry.registerPath({
  method: 'post',
  path: '/v1/players',
  summary: 'Create or update a player (upsert by workspaceId + playerId)',
  description: 'Always 200; compare firstSeenAt and lastSeenAt to tell a create from an update. Needs players:write.',
  security,
  request: { body: { content: { 'application/json': { schema: UpsertPlayerBody } } } },
  responses: { 200: json(PlayerResponse, 'The player'), ...errorResponses(400) },
});

registry.registerPath({
  method: 'get',
  path: '/v1/players/lookup',
  summary: "Find a player by the caller's own playerId",
  description: 'Needs players:read.',
  security,
  request: { query: PlayerLookupQuery },
  responses: { 200: json(PlayerResponse, 'The player'), ...errorResponses(400, 404) },
});

registry.registerPath({
  method: 'get',
  path: '/v1/players/{id}',
  summary: 'Get a player by internal id',
  description: 'Needs players:read. 404 also when the player is in a workspace the key cannot use.',
  security,
  request: { params: PlayerIdParams },
  responses: { 200: json(PlayerResponse, 'The player'), ...errorResponses(404) },
});

registry.registerPath({
  method: 'get',
  path: '/v1/players/{id}/tickets',
  summary: "A player's tickets, newest first",
  description: 'Needs players:read.',
  security,
  request: { params: PlayerIdParams, query: PlayerTicketsQuery },
  responses: { 200: json(PlayerTicketsResponse, 'One page of tickets'), ...errorResponses(400, 404) },
});

registry.registerPath({
  method: 'delete',
  path: '/v1/players/{id}',
  summary: 'Erase a player (privacy erasure; irreversible)',
  description:
    'Purges the profile and anonymises the ticket history in one transaction. Needs players:write. ' +
    'A second call answers 404.',
  security,
  request: { params: PlayerIdParams },
  responses: { 204: { description: 'Erased; no body' }, ...errorResponses(404) },
});

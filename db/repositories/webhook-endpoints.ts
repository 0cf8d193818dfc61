// webhook_endpoints. secret_box is written at creation and by a rotation (which keeps the
// one it replaces in previous_secret_box for 24 h); only the delivery reads them
// (webhook-deliveries.ts, deliveryToAttempt).
import { In } from 'typeorm';
import { notDeleted } from '../soft-delete';
import { WebhookEndpoint } from '../entities';
import { managerOf, sql, type Db, type Executor } from '../db';
import type { WebhookApiName } from '../../domain/webhooks/api-names';
import { lockPlatformWorkspace } from './platform-workspaces';
import { lockWorkspace } from './workspaces';

/** An endpoint as the APIs show it: everything but the secrets (the platform API also shows why and since when it is paused). */
export type EndpointRecord = Omit<WebhookEndpoint, 'secretBox' | 'previousSecretBox' | 'previousSecretExpiresAt' | 'deletedAt' | 'workspace' | 'platformWorkspace'>;

const SHOWN = {
  id: true,
  workspaceId: true,
  url: true,
  events: true,
  description: true,
  active: true,
  createdAt: true,
  updatedAt: true,
  api: true,
  pausedAt: true,
  pausedReason: true,
  environment: true,
  testMode: true,
} as const;

export interface NewEndpoint {
  id: string;
  /** default the column's, 'ticketing' */
  api?: WebhookApiName;
  /** a platform endpoint's environment (the registering token's); none for the ticketing API */
  environment?: 'live' | 'test';
  workspaceId: string;
  url: string;
  events: string[];
  description: string;
  active: boolean;
  /** default false; ticketing endpoints only (docs/webhooks.md, "Test mode") */
  testMode?: boolean;
  secretBox: string;
}

/**
 * Inserts unless the workspace already has `max` live endpoints; null when it has. Runs
 * in its own transaction: the workspace lock serialises creates, so two at once cannot
 * both pass the count.
 */
export async function insertEndpoint(
  db: Pick<Db, 'transaction'>,
  e: NewEndpoint,
  max: number,
): Promise<EndpointRecord | null> {
  return db.transaction(async (m) => {
    // the workspace of the endpoint's API (its foreign key says which table holds it)
    if (e.api === 'platform') await lockPlatformWorkspace(m, e.workspaceId);
    else await lockWorkspace(m, e.workspaceId);
    const live = await m.count(WebhookEndpoint, { where: { workspaceId: e.workspaceId, ...notDeleted } });
    if (live >= max) return null;
    await m.insert(WebhookEndpoint, e);
    return m.findOne(WebhookEndpoint, { select: SHOWN, where: { id: e.id } });
  });
}

/** A live (not deleted) endpoint by id. */
export async function findEndpoint(executor: Executor, id: string): Promise<EndpointRecord | null> {
  return managerOf(executor).findOne(WebhookEndpoint, { select: SHOWN, where: { id, ...notDeleted } });
}

export async function listEndpoints(executor: Executor, workspaceId: string): Promise<EndpointRecord[]> {
  return managerOf(executor).find(WebhookEndpoint, {
    select: SHOWN,
    where: { workspaceId, ...notDeleted },
    order: { createdAt: 'ASC', id: 'ASC' },
  });
}

/** The live endpoints of these workspaces, with what the fan-out needs to route events. */
export async function liveEndpointsOf(executor: Executor, workspaceIds: string[]) {
  return managerOf(executor).find(WebhookEndpoint, {
    select: { id: true, workspaceId: true, events: true, active: true, api: true, environment: true, testMode: true },
    where: { workspaceId: In(workspaceIds), ...notDeleted },
  });
}

/** A page of one workspace's live endpoints of one API (and environment, when given), oldest first, and how many there are. */
export async function pageOfEndpoints(
  executor: Executor,
  o: { api: WebhookApiName; workspaceId: string; environment?: 'live' | 'test'; offset: number; limit: number },
): Promise<{ rows: EndpointRecord[]; total: number }> {
  const [rows, total] = await managerOf(executor).findAndCount(WebhookEndpoint, {
    select: SHOWN,
    where: { workspaceId: o.workspaceId, api: o.api, ...(o.environment ? { environment: o.environment } : {}), ...notDeleted },
    order: { createdAt: 'ASC', id: 'ASC' },
    skip: o.offset,
    take: o.limit,
  });
  return { rows, total };
}

/**
 * A rotation: `secretBox` becomes the endpoint's secret and the one it replaces the
 * previous, signed beside it until `previousExpiresAt` (a second rotation within that
 * time drops the older one). One statement, so two rotations at once chain, neither lost.
 * False when the endpoint is deleted.
 */
export async function rotateEndpointSecret(executor: Executor, id: string, secretBox: string, previousExpiresAt: Date): Promise<boolean> {
  const { affected } = await managerOf(executor).update(
    WebhookEndpoint,
    { id, ...notDeleted },
    { previousSecretBox: () => 'secret_box', previousSecretExpiresAt: previousExpiresAt, secretBox, updatedAt: () => 'now()' },
  );
  return affected === 1;
}

export interface EndpointChange {
  url?: string;
  events?: string[];
  description?: string;
  active?: boolean;
  testMode?: boolean;
}

/** Applies the given fields; null when the endpoint was deleted meanwhile. */
export async function updateEndpoint(executor: Executor, id: string, change: EndpointChange): Promise<EndpointRecord | null> {
  const m = managerOf(executor);
  const given = Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined));
  // a pause by hand is 'manual' (kept if already paused); resuming clears whatever paused it
  const pause =
    change.active === undefined
      ? {}
      : change.active
        ? { pausedAt: null, pausedReason: null }
        : { pausedAt: () => 'COALESCE(paused_at, now())', pausedReason: () => "COALESCE(paused_reason, 'manual')" };
  const { affected } = await m.update(WebhookEndpoint, { id, ...notDeleted }, { ...given, ...pause, updatedAt: () => 'now()' });
  return affected ? findEndpoint(m, id) : null;
}

/** Soft delete: the delivery log keeps its foreign key; false when already deleted. */
export async function deleteEndpoint(executor: Executor, id: string): Promise<boolean> {
  const { affected } = await managerOf(executor).update(
    WebhookEndpoint,
    { id, ...notDeleted },
    { deletedAt: () => 'now()', updatedAt: () => 'now()' },
  );
  return affected === 1;
}

/** An endpoint the pause step may pause, with what its email names. */
export type PausableEndpoint = Pick<WebhookEndpoint, 'id' | 'workspaceId' | 'url' | 'description' | 'api'>;

/** The endpoint, locked until the transaction ends, if it is active and not deleted. */
export async function lockActiveEndpoint(executor: Executor, endpointId: string): Promise<PausableEndpoint | null> {
  return managerOf(executor).findOne(WebhookEndpoint, {
    select: { id: true, workspaceId: true, url: true, description: true, api: true },
    where: { id: endpointId, active: true, ...notDeleted },
    lock: { mode: 'pessimistic_write' },
  });
}

/** Pauses it with `reason` ('delivery_failed' from the pause step; a PATCH writes 'manual'). */
export async function pauseEndpoint(executor: Executor, endpointId: string, reason: string): Promise<void> {
  await managerOf(executor).update(
    WebhookEndpoint,
    { id: endpointId },
    { active: false, pausedAt: () => 'now()', pausedReason: reason, updatedAt: () => 'now()' },
  );
}

/**
 * A workspace's purge (domain/platform/purge-workspace.ts): every endpoint of the API's
 * workspace, deleted ones too, with their delivery log (attempts go with their delivery,
 * ON DELETE CASCADE), so the workspace's row can go. A delivery still retrying finds no
 * row at its next attempt and ends there (deliveryToAttempt: null, 'skipped').
 */
export async function purgeEndpointsOfWorkspace(executor: Executor, api: WebhookApiName, workspaceId: string): Promise<{ endpoints: number; deliveries: number }> {
  const deliveries = await sql(
    executor,
    `DELETE FROM webhook_deliveries WHERE endpoint_id IN (SELECT id FROM webhook_endpoints WHERE api = $1 AND workspace_id = $2)`,
    [api, workspaceId],
  );
  const endpoints = await sql(executor, `DELETE FROM webhook_endpoints WHERE api = $1 AND workspace_id = $2`, [api, workspaceId]);
  return { endpoints: endpoints.rowCount ?? 0, deliveries: deliveries.rowCount ?? 0 };
}

// SQL for webhook endpoints. secret_box is written once at creation and never read here:
// only the delivery activity opens it.
import type { Db, Queryable } from '../../../db/db';
import type { WebhookEventType } from './schema';

export interface EndpointRow {
  id: string;
  workspace_id: string;
  url: string;
  events: WebhookEventType[];
  description: string;
  active: boolean;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = 'id, workspace_id, url, events, description, active, created_at, updated_at';

export interface NewEndpoint {
  id: string;
  workspaceId: string;
  url: string;
  events: WebhookEventType[];
  description: string;
  active: boolean;
  secretBox: string;
}

/** Inserts unless the workspace already has `max` endpoints; null when it has. */
export async function insertEndpoint(db: Db, e: NewEndpoint, max: number): Promise<EndpointRow | null> {
  return db.tx(async (q) => {
    // Serialises creates per workspace so two at once cannot both pass the count. NO KEY
    // UPDATE, not UPDATE: it does not block the key-share locks of ticket/player inserts.
    await q.query('SELECT 1 FROM workspaces WHERE id = $1 FOR NO KEY UPDATE', [e.workspaceId]);
    const { rows: counted } = await q.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM webhook_endpoints WHERE workspace_id = $1 AND deleted_at IS NULL',
      [e.workspaceId],
    );
    if (counted[0].n >= max) return null;
    const { rows } = await q.query<EndpointRow>(
      `INSERT INTO webhook_endpoints (id, workspace_id, url, events, description, active, secret_box)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
      [e.id, e.workspaceId, e.url, e.events, e.description, e.active, e.secretBox],
    );
    return rows[0];
  });
}

/** A live (not deleted) endpoint by id. */
export async function findEndpoint(db: Queryable, id: string): Promise<EndpointRow | null> {
  const { rows } = await db.query<EndpointRow>(`SELECT ${COLUMNS} FROM webhook_endpoints WHERE id = $1 AND deleted_at IS NULL`, [id]);
  return rows[0] ?? null;
}

export async function listEndpoints(db: Queryable, workspaceId: string): Promise<EndpointRow[]> {
  const { rows } = await db.query<EndpointRow>(
    `SELECT ${COLUMNS} FROM webhook_endpoints WHERE workspace_id = $1 AND deleted_at IS NULL ORDER BY created_at, id`,
    [workspaceId],
  );
  return rows;
}

export interface EndpointChange {
  url?: string;
  events?: WebhookEventType[];
  description?: string;
  active?: boolean;
}

/** Applies the given fields; null when the endpoint was deleted meanwhile. */
export async function updateEndpoint(db: Queryable, id: string, change: EndpointChange): Promise<EndpointRow | null> {
  const sets: string[] = ['updated_at = now()'];
  const params: unknown[] = [id];
  for (const column of ['url', 'events', 'description', 'active'] as const) {
    if (change[column] === undefined) continue;
    params.push(change[column]);
    sets.push(`${column} = $${params.length}`);
  }
  const { rows } = await db.query<EndpointRow>(
    `UPDATE webhook_endpoints SET ${sets.join(', ')} WHERE id = $1 AND deleted_at IS NULL RETURNING ${COLUMNS}`,
    params,
  );
  return rows[0] ?? null;
}

/** Soft delete: the delivery log keeps its foreign key; false when already deleted. */
export async function deleteEndpoint(db: Queryable, id: string): Promise<boolean> {
  const { rowCount } = await db.query(
    'UPDATE webhook_endpoints SET deleted_at = now(), updated_at = now() WHERE id = $1 AND deleted_at IS NULL',
    [id],
  );
  return rowCount === 1;
}

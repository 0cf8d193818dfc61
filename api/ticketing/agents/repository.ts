// Agents: the people tickets are assigned to. Document 1 only shows them expanded as
// `assignee`; this small resource exists so assignment has something to point at.
import type { Queryable } from '../../../db/db';

export interface AgentRow {
  id: string;
  workspace_id: string;
  name: string;
  email: string | null;
  avatar_url: string | null;
  created_at: Date;
}

const COLUMNS = 'id, workspace_id, name, email, avatar_url, created_at';

/** The agent `agentId` inside `workspaceId`, or null (the assign route's 404 agent_not_found). */
export async function findAgent(db: Queryable, workspaceId: string, agentId: string): Promise<AgentRow | null> {
  const { rows } = await db.query<AgentRow>(`SELECT ${COLUMNS} FROM agents WHERE id = $1 AND workspace_id = $2`, [
    agentId,
    workspaceId,
  ]);
  return rows[0] ?? null;
}

/** By id alone, for GET /agents/{id}; the route checks the workspace afterwards. */
export async function findAgentById(db: Queryable, agentId: string): Promise<AgentRow | null> {
  const { rows } = await db.query<AgentRow>(`SELECT ${COLUMNS} FROM agents WHERE id = $1`, [agentId]);
  return rows[0] ?? null;
}

export async function insertAgent(
  db: Queryable,
  agent: { id: string; workspaceId: string; name: string; email: string | null; avatarUrl: string | null },
): Promise<AgentRow> {
  const { rows } = await db.query<AgentRow>(
    `INSERT INTO agents (id, workspace_id, name, email, avatar_url) VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
    [agent.id, agent.workspaceId, agent.name, agent.email, agent.avatarUrl],
  );
  return rows[0];
}

/** Oldest first (agents_ws index on (workspace_id, created_at)); id breaks ties. */
export async function listAgents(
  db: Queryable,
  workspaceId: string,
  page: { limit: number; offset: number },
): Promise<{ total: number; rows: AgentRow[] }> {
  const [count, list] = await Promise.all([
    db.query<{ n: number }>('SELECT count(*)::int AS n FROM agents WHERE workspace_id = $1', [workspaceId]),
    db.query<AgentRow>(
      `SELECT ${COLUMNS} FROM agents WHERE workspace_id = $1 ORDER BY created_at, id LIMIT $2 OFFSET $3`,
      [workspaceId, page.limit, page.offset],
    ),
  ]);
  return { total: count.rows[0].n, rows: list.rows };
}

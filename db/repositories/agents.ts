// agents: the people tickets are assigned to. The ticketing API only shows them expanded as
// `assignee`; this small resource exists so assignment has something to point at.
import { Agent } from '../entities';
import type { AgentRecord } from '../../domain/tickets/types';
import { managerOf, sql, type Executor, type SqlExecutor } from '../db';

/**
 * The agent `agentId` inside `workspaceId`, or null (the assign route's 404
 * agent_not_found). SQL through the query API: it is on the measured get-by-id path
 * (docs/benchmarks.md), which the bare peer also runs over a plain pg pool.
 */
export async function findAgent(executor: SqlExecutor, workspaceId: string, agentId: string): Promise<AgentRecord | null> {
  const { rows } = await sql<AgentRecord>(executor, 
    `SELECT id, workspace_id AS "workspaceId", name, email, avatar_url AS "avatarUrl", created_at AS "createdAt"
       FROM agents WHERE id = $1 AND workspace_id = $2`,
    [agentId, workspaceId],
  );
  return rows[0] ?? null;
}

/** By id alone, for GET /agents/{id}; the route checks the workspace afterwards. */
export async function findAgentById(executor: Executor, agentId: string): Promise<Agent | null> {
  return managerOf(executor).findOne(Agent, { where: { id: agentId } });
}

export async function insertAgent(
  executor: Executor,
  agent: { id: string; workspaceId: string; name: string; email: string | null; avatarUrl: string | null },
): Promise<Agent> {
  const m = managerOf(executor);
  await m.insert(Agent, agent);
  return (await m.findOne(Agent, { where: { id: agent.id } }))!;
}

/** Oldest first (agents_ws index on (workspace_id, created_at)); id breaks ties. */
export async function listAgents(
  executor: Executor,
  workspaceId: string,
  page: { limit: number; offset: number },
): Promise<{ total: number; rows: Agent[] }> {
  const [rows, total] = await managerOf(executor).findAndCount(Agent, {
    where: { workspaceId },
    order: { createdAt: 'ASC', id: 'ASC' },
    take: page.limit,
    skip: page.offset,
  });
  return { total, rows };
}

/** Idempotent (the demo bootstrap runs on every `npm start`). */
export async function ensureAgent(executor: Executor, agent: { id: string; workspaceId: string; name: string; email: string | null }): Promise<void> {
  await managerOf(executor).createQueryBuilder().insert().into(Agent).values(agent).orIgnore().execute();
}

/** The workspace's agents' email addresses (who hears that a webhook endpoint was paused). */
export async function agentEmails(executor: Executor, workspaceId: string): Promise<string[]> {
  const rows = await managerOf(executor)
    .createQueryBuilder(Agent, 'a')
    .select('DISTINCT a.email', 'email')
    .where('a.workspace_id = :workspaceId', { workspaceId })
    .andWhere("a.email IS NOT NULL AND a.email <> ''")
    .orderBy('email')
    .getRawMany<{ email: string }>();
  return rows.map((r) => r.email);
}

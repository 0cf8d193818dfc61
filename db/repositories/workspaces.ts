// workspaces: where tickets and players live; their settings (domain/workspaces/types.ts, defaults in settings.rules.ts)
// are read fresh wherever they are used.
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { Workspace } from '../entities';
import { managerOf, type Executor } from '../db';

export type WorkspaceAccess = Pick<Workspace, 'id' | 'organizationId' | 'environment'>;

/** What access checks need: the organization and environment (they never change). */
export async function findWorkspaceAccess(executor: Executor, id: string): Promise<WorkspaceAccess | null> {
  return managerOf(executor).findOne(Workspace, {
    select: { id: true, organizationId: true, environment: true },
    where: { id },
  });
}

/** The stored settings object (partial; defaults applied by the reader), or null for no such workspace. */
export async function findWorkspaceSettings(executor: Executor, id: string): Promise<Record<string, unknown> | null> {
  const row = await managerOf(executor).findOne(Workspace, { select: { id: true, settings: true }, where: { id } });
  return row ? row.settings : null;
}

/**
 * Read-modify-write of the settings under the row lock, so two concurrent PATCHes do
 * not lose each other's fields. `change` returns the object to store (it may throw to
 * refuse). Run it inside the caller's transaction.
 */
export async function updateWorkspaceSettings<T>(
  executor: Executor,
  id: string,
  change: (stored: Record<string, unknown> | undefined) => { settings: Record<string, unknown>; result: T },
): Promise<T> {
  const m = managerOf(executor);
  const row = await m.findOne(Workspace, { select: { id: true, settings: true }, where: { id }, lock: { mode: 'pessimistic_write' } });
  const { settings, result } = change(row?.settings);
  // jsonb: TypeORM serialises the object; its deep-partial type cannot describe an open record
  await m.update(Workspace, { id }, { settings } as QueryDeepPartialEntity<Workspace>);
  return result;
}

/**
 * Takes the workspace row's NO KEY UPDATE lock until the transaction ends: serialises
 * "count, then insert" per workspace without blocking the key-share locks that ticket
 * and player inserts take on it.
 */
export async function lockWorkspace(executor: Executor, id: string): Promise<void> {
  await managerOf(executor)
    .createQueryBuilder(Workspace, 'w')
    .select('w.id')
    .where('w.id = :id', { id })
    .setLock('for_no_key_update')
    .getRawOne();
}

/** Idempotent (the bootstrap runs on every `npm start`). */
export async function ensureWorkspace(
  executor: Executor,
  w: Pick<Workspace, 'id' | 'organizationId' | 'name' | 'environment'>,
): Promise<void> {
  await managerOf(executor).createQueryBuilder().insert().into(Workspace).values(w).orIgnore().execute();
}

import type { Executor } from '../../db/db';
import { findWorkspaceSettings } from '../../db/repositories/workspaces';
import { resolveSettings } from './settings.rules';
import type { WorkspaceSettings } from './types';
import { workspaceNotFound } from './errors';

/** The workspace's settings with the defaults filled in (its timers start from them). */
export async function loadWorkspaceSettings(executor: Executor, workspaceId: string): Promise<WorkspaceSettings> {
  const stored = await findWorkspaceSettings(executor, workspaceId);
  if (!stored) throw workspaceNotFound(workspaceId);
  return resolveSettings(stored);
}

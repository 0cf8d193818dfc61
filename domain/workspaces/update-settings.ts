// A workspace's settings changed by a merge patch, in one transaction under the
// workspace row's lock. The row keeps only the overrides (later changes to a default
// still apply); the caller checks the whole result, not just the patch, since a new
// first-response target may conflict with a resolution target stored earlier.
import type { Executor } from '../../db/db';
import { updateWorkspaceSettings } from '../../db/repositories/workspaces';
import { mergePatch, type JsonObject } from '../../lib/merge-patch';

/** Applies `patch`; `accept(merged)` may refuse the result by throwing, and answers what the caller returns. */
export async function patchWorkspaceSettings<T>(executor: Executor, workspaceId: string, patch: JsonObject, accept: (merged: JsonObject) => T): Promise<T> {
  return updateWorkspaceSettings(executor, workspaceId, (stored) => {
    const merged = mergePatch(stored, patch);
    return { settings: merged, result: accept(merged) };
  });
}

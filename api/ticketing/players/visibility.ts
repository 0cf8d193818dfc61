import type { Context } from 'koa';
import type { AppDeps } from '../../deps';
import { AppError } from '../../kit/errors';
import { requireWorkspace } from '../access';

/**
 * For resources addressed by their own id (players, agents): whether the caller may
 * use the workspace the resource lives in. Those routes answer 404 instead of 403 so
 * an id from another workspace or organization is indistinguishable from a missing
 * one (no existence leak); routes that name the workspace keep the spec's 403.
 */
export async function canUseWorkspace(ctx: Context, deps: AppDeps, workspaceId: string): Promise<boolean> {
  try {
    await requireWorkspace(ctx, deps, workspaceId);
    return true;
  } catch (err) {
    if (err instanceof AppError && err.status === 403) return false;
    throw err;
  }
}

import { isJsonObject } from '../../../lib/merge-patch';
import { resolveSettings } from '../../../domain/workspaces/settings.rules';
import type { WorkspaceSettings } from '../../../domain/workspaces/types';
import type { WorkspaceSettingsResponse } from './schema';

/** The stored overrides over the defaults: the WorkspaceSettings object of the API. */
export function presentSettings(workspaceId: string, stored: unknown): WorkspaceSettingsResponse {
  return { workspaceId, ...resolveSettings(isJsonObject(stored) ? (stored as Partial<WorkspaceSettings>) : null) };
}

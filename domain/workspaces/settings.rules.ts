// Per-workspace ticketing settings' defaults and how stored overrides resolve over them:
// pure, shared by the API and the ticket command that starts a ticket's timers. The
// records are in ./types.ts; stored as jsonb on workspaces.settings.
import { PRIORITIES, type WorkspaceSettings } from './types';

export const DEFAULT_SETTINGS: WorkspaceSettings = {
  autoCloseHours: 72,
  sla: {
    urgent: { firstResponseMinutes: 60, resolutionMinutes: 8 * 60 },
    high: { firstResponseMinutes: 4 * 60, resolutionMinutes: 24 * 60 },
    medium: { firstResponseMinutes: 8 * 60, resolutionMinutes: 72 * 60 },
    low: { firstResponseMinutes: 24 * 60, resolutionMinutes: 7 * 24 * 60 },
  },
};

/** Stored settings over the defaults; unknown or missing parts fall back to the defaults. */
export function resolveSettings(stored: Partial<WorkspaceSettings> | null | undefined): WorkspaceSettings {
  const sla = { ...DEFAULT_SETTINGS.sla };
  for (const p of PRIORITIES) sla[p] = { ...DEFAULT_SETTINGS.sla[p], ...(stored?.sla?.[p] ?? {}) };
  return { autoCloseHours: stored?.autoCloseHours ?? DEFAULT_SETTINGS.autoCloseHours, sla };
}

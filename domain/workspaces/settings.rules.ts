// Per-workspace ticketing settings: pure, shared by the API (validation, defaults) and
// the ticket workflow (timers). Stored as jsonb on workspaces.settings.
export type Priority = 'low' | 'medium' | 'high' | 'urgent';
export const PRIORITIES: Priority[] = ['low', 'medium', 'high', 'urgent'];

export interface SlaTarget {
  /** minutes from creation to the first agent reply */
  firstResponseMinutes: number;
  /** minutes from creation to resolution */
  resolutionMinutes: number;
}

export interface WorkspaceSettings {
  /** a resolved ticket with no player reply closes after this many hours (spec default 72) */
  autoCloseHours: number;
  sla: Record<Priority, SlaTarget>;
}

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

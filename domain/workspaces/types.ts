// Record types of a workspace's ticketing settings, shared by the API, the ticket commands,
// the ticket workflow (its timers) and the repositories.
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

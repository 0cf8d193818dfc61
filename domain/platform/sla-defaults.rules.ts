// The platform API's SLA policies (docs/platform.md, "Workspaces"): until part 2 makes them
// editable per workspace, every workspace answers these defaults as its active policies,
// one per platform priority. Pure: the API's presenters and, later, the ticket workflow's
// deadlines read the same numbers. The magnitudes are /v1's defaults
// (domain/workspaces/settings.rules.ts) on the platform's own priorities.
import { PLATFORM_TICKET_PRIORITIES, type PlatformTicketPriority } from './types';

export interface PlatformSlaPolicy {
  priority: PlatformTicketPriority;
  /** minutes from a ticket's creation to its first agent reply */
  firstResponseMinutes: number;
  /** minutes from a ticket's creation to its resolution */
  resolutionMinutes: number;
}

const HOUR = 60;

export const PLATFORM_SLA_DEFAULTS: Readonly<Record<PlatformTicketPriority, { firstResponseMinutes: number; resolutionMinutes: number }>> = {
  critical: { firstResponseMinutes: 1 * HOUR, resolutionMinutes: 8 * HOUR },
  high: { firstResponseMinutes: 4 * HOUR, resolutionMinutes: 24 * HOUR },
  normal: { firstResponseMinutes: 8 * HOUR, resolutionMinutes: 72 * HOUR },
  low: { firstResponseMinutes: 24 * HOUR, resolutionMinutes: 7 * 24 * HOUR },
};

/** A workspace's active SLA policies, in priority order (critical first). */
export function activeSlaPolicies(): PlatformSlaPolicy[] {
  return PLATFORM_TICKET_PRIORITIES.map((priority) => ({ priority, ...PLATFORM_SLA_DEFAULTS[priority] }));
}

// The platform API's SLA policies (docs/platform.md, "Workspaces"): every workspace answers
// these defaults as its active policies, one per platform priority, until an admin stores
// its own (PUT /workspaces/{id}/sla-policies, validated here). Pure: the API's presenters
// and, later, the ticket workflow's deadlines read the same numbers. The defaults'
// magnitudes are /v1's (domain/workspaces/settings.rules.ts) on the platform's own priorities.
import { platformInvalidField } from './errors';
import { PLATFORM_TICKET_PRIORITIES, type PlatformSlaPolicy, type PlatformTicketPriority } from './types';

export type { PlatformSlaPolicy } from './types';

const HOUR = 60;

/** The most minutes a policy may give: a year. */
export const SLA_MAX_MINUTES = 525_600;

export const PLATFORM_SLA_DEFAULTS: Readonly<Record<PlatformTicketPriority, { firstResponseMinutes: number; resolutionMinutes: number }>> = {
  critical: { firstResponseMinutes: 1 * HOUR, resolutionMinutes: 8 * HOUR },
  high: { firstResponseMinutes: 4 * HOUR, resolutionMinutes: 24 * HOUR },
  normal: { firstResponseMinutes: 8 * HOUR, resolutionMinutes: 72 * HOUR },
  low: { firstResponseMinutes: 24 * HOUR, resolutionMinutes: 7 * 24 * HOUR },
};

/** A workspace's active SLA policies, in priority order (critical first): the stored ones, or the defaults when none are stored. */
export function activeSlaPolicies(stored: readonly PlatformSlaPolicy[] | null = null): PlatformSlaPolicy[] {
  if (stored) {
    const byPriority = new Map(stored.map((p) => [p.priority, p]));
    if (PLATFORM_TICKET_PRIORITIES.every((p) => byPriority.has(p)))
      return PLATFORM_TICKET_PRIORITIES.map((priority) => {
        const p = byPriority.get(priority)!;
        return { priority, firstResponseMinutes: p.firstResponseMinutes, resolutionMinutes: p.resolutionMinutes };
      });
  }
  return PLATFORM_TICKET_PRIORITIES.map((priority) => ({ priority, ...PLATFORM_SLA_DEFAULTS[priority] }));
}

const validMinutes = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= SLA_MAX_MINUTES;

/**
 * The policies a workspace may store, in priority order: exactly one per priority
 * (critical, high, normal, low), each time a whole number of minutes from 1 to a year,
 * the first response no later than the resolution. Else a `validation_failed` naming the field.
 */
export function validSlaPolicies(policies: readonly PlatformSlaPolicy[]): PlatformSlaPolicy[] {
  const seen = new Set<string>();
  policies.forEach((p, i) => {
    const at = `policies[${i}]`;
    if (!PLATFORM_TICKET_PRIORITIES.includes(p.priority)) throw platformInvalidField(`${at}.priority`, `must be one of ${PLATFORM_TICKET_PRIORITIES.join(', ')}`);
    if (seen.has(p.priority)) throw platformInvalidField(`${at}.priority`, `'${p.priority}' has more than one policy`);
    seen.add(p.priority);
    for (const [field, value] of [['first_response_minutes', p.firstResponseMinutes], ['resolution_minutes', p.resolutionMinutes]] as const)
      if (!validMinutes(value)) throw platformInvalidField(`${at}.${field}`, `must be a whole number of minutes from 1 to ${SLA_MAX_MINUTES}`);
    if (p.firstResponseMinutes > p.resolutionMinutes) throw platformInvalidField(`${at}.first_response_minutes`, 'must not be greater than resolution_minutes');
  });
  const missing = PLATFORM_TICKET_PRIORITIES.filter((p) => !seen.has(p));
  if (missing.length) throw platformInvalidField('policies', `needs one policy per priority; missing: ${missing.join(', ')}`);
  return activeSlaPolicies(policies);
}

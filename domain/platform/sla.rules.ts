// A platform ticket's SLA deadlines and breaches (docs/platform.md, "SLA breaches"), pure:
// the ticket workflow's timers (workflows/platform-ticket/sla-timers.ts), the activity that
// reads the deadlines and the one that records a breach apply the same functions. Times
// are ms since the epoch; no clocks, no I/O. The shape follows /v1's `pendingDeadlines`
// and `nextDeadline` (domain/tickets/rules.ts).
import { activeSlaPolicies } from './sla-defaults.rules';
import type { PlatformSlaPolicy, PlatformTicketPriority, PlatformTicketStatus } from './types';

/** The two policies every ticket has; the event's `policy` and the analytics' keys. */
export type PlatformSlaPolicyName = 'first_response' | 'resolution';
export const PLATFORM_SLA_POLICY_NAMES: PlatformSlaPolicyName[] = ['first_response', 'resolution'];

const MINUTE = 60_000;

/** When each policy of a ticket created at `createdAt` with `priority` falls due under the workspace's stored policies (null: the defaults). */
export function slaDueTimes(
  createdAt: number,
  priority: PlatformTicketPriority,
  stored: readonly PlatformSlaPolicy[] | null,
): Record<PlatformSlaPolicyName, number> {
  const policy = activeSlaPolicies(stored).find((p) => p.priority === priority)!;
  return { first_response: createdAt + policy.firstResponseMinutes * MINUTE, resolution: createdAt + policy.resolutionMinutes * MINUTE };
}

/** What the deadlines depend on besides the due times. */
export interface SlaTicketFacts {
  status: PlatformTicketStatus;
  /** soft-deleted: no breach while hidden (its clock runs on; see docs) */
  deleted: boolean;
  /** a reply has been published (first_response_at is set) */
  firstResponded: boolean;
  breached: Record<PlatformSlaPolicyName, boolean>;
}

/**
 * Whether `policy` is still unmet and unbreached, so that it may breach: first response
 * until the first reply, resolution until the ticket is resolved or closed. Neither breaches
 * on a resolved (dealt with; a reopen brings both back), closed (terminal) or soft-deleted
 * ticket, nor a second time.
 */
export function slaPolicyOpen(t: SlaTicketFacts, policy: PlatformSlaPolicyName): boolean {
  if (t.breached[policy] || t.deleted || t.status === 'resolved' || t.status === 'closed') return false;
  return policy === 'resolution' || !t.firstResponded;
}

export interface SlaDeadline {
  policy: PlatformSlaPolicyName;
  at: number;
}

/** Every deadline still to be watched, earliest first. */
export function pendingSlaDeadlines(t: SlaTicketFacts, due: Record<PlatformSlaPolicyName, number>): SlaDeadline[] {
  return PLATFORM_SLA_POLICY_NAMES.filter((p) => slaPolicyOpen(t, p))
    .map((policy) => ({ policy, at: due[policy] }))
    .sort((a, b) => a.at - b.at);
}

/** The deadline the workflow sleeps until, or null when none is pending. */
export function nextSlaDeadline(t: SlaTicketFacts, due: Record<PlatformSlaPolicyName, number>): SlaDeadline | null {
  return pendingSlaDeadlines(t, due)[0] ?? null;
}

/** Whether `policy` breaches at `now`: still open and its deadline reached (the deadline itself breaches). */
export const slaBreachesAt = (t: SlaTicketFacts, due: Record<PlatformSlaPolicyName, number>, policy: PlatformSlaPolicyName, now: number): boolean =>
  slaPolicyOpen(t, policy) && due[policy] <= now;

/** A ticket's SLA as its workflow keeps it (the deadline reader's answer): ISO times, flags, never text. */
export interface PlatformTicketSla {
  /** the priority the due times were computed for (a priority change recomputes them) */
  priority: PlatformTicketPriority;
  /** ISO: created_at + the priority's minutes of each policy, under the policies read then */
  dueAt: Record<PlatformSlaPolicyName, string>;
  /** first_response_at is set */
  firstResponded: boolean;
  /** the policy's breach column is set */
  breached: Record<PlatformSlaPolicyName, boolean>;
}

/** The breach activity's request: the policy and the deadline the workflow's timer watched. */
export interface PlatformSlaBreachRequest {
  ticketId: string;
  policy: PlatformSlaPolicyName;
  /** ISO: the deadline, stored as the breach's time (the moment the target was missed) */
  dueAt: string;
}

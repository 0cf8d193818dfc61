// The steps of a platform ticket's workflow as data (docs/platform.md, "Tickets"): what a
// step changes, what the workflow keeps of the row after it. Pure (no db/): the workflow
// contract re-exports these types; domain/platform/apply-ticket-change.ts applies them.
import type { PlatformTicketSla } from './sla.rules';
import type { PlatformTicketPriority, PlatformTicketRecord, PlatformTicketStatus } from './types';

/** What one step changes: ids, statuses and small values only (it is an activity's argument, kept in the history). */
export type PlatformTicketChange =
  | { kind: 'patch'; status?: PlatformTicketStatus; priority?: PlatformTicketPriority; assigneeId?: string | null; tags?: string[] }
  | { kind: 'reply'; replyId: string }
  | { kind: 'delete' }
  | { kind: 'restore' }
  | { kind: 'unassign'; userId: string }
  /** an automation rule's actions, those that still apply (domain/platform/automation-step.ts); `trigger` is what it ran on */
  | { kind: 'automation'; automationId: string; trigger: 'ticket.created' | 'ticket.updated' };

export interface PlatformTicketStep {
  ticketId: string;
  /** the step number this change is stored as (the row's version after it) */
  version: number;
  /** ISO: the step's time (updated_at, resolved_at, deleted_at, the reply's created_at) */
  at: string;
  change: PlatformTicketChange;
  /**
   * The change that makes this step, unique per ticket (docs/platform.md, "Step keys"):
   * `update:<Update id>` for a change an Update asked for, `automation:<rule id>:<origin>`
   * for a rule's step (workflows/platform-ticket/automations.ts). Absent in the requests of
   * code before step keys (a worker of the old code during a deploy): numbers only.
   */
  key?: string;
  /**
   * Apply nothing: answer whether `key` made a step (as stored) or not (`taken`, with the
   * row's facts). The workflow asks it before refusing a change once it has met steps it did
   * not make (workflows/platform-ticket/numbered-step.ts).
   */
  onlyIfStored?: true;
}

/** What the workflow keeps of the row after a step. */
export interface PlatformTicketFacts {
  version: number;
  status: PlatformTicketStatus;
  assigneeId: string | null;
  /** ISO, or null when not soft-deleted */
  purgeAt: string | null;
}

/**
 * The answer when the step's number belongs to another change (a workflow task lost after
 * its steps were committed, re-run with its changes in another order): nothing applied,
 * the row's facts as they are now. Only keyed requests get it.
 */
export type PlatformTicketTaken = PlatformTicketFacts & { taken: true };

/**
 * What the workflow reads right after a patch or a reply (docs/platform.md, "Steps and what
 * follows them"), read in the step's own transaction so it needs no local activity of its
 * own: the `ticket.updated` rules that would fire on the ticket as stored now (the first
 * round of its automations), and for a patch that names a priority, the SLA deadlines.
 */
export interface PlatformTicketFollowUps {
  automations: string[];
  sla?: PlatformTicketSla | { gone: true };
}

/** The facts of a step applied now, with what follows it (absent in results of code before it). */
export type PlatformTicketApplied = PlatformTicketFacts & { followUps?: PlatformTicketFollowUps };

/**
 * A step's result: the facts after it (applied now, or applied already under its key), `taken`
 * (another change has its number: ask again with the next), or `gone` when the row has
 * vanished (its workspace purged).
 */
export type PlatformTicketStepResult = PlatformTicketApplied | PlatformTicketTaken | { gone: true };

export const factsOf = (t: PlatformTicketRecord): PlatformTicketFacts => ({
  version: t.version,
  status: t.status,
  assigneeId: t.assigneeId,
  purgeAt: t.deletedAt && t.purgeAt ? new Date(t.purgeAt).toISOString() : null,
});

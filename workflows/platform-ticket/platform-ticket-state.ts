// The platform ticket workflow's state and the pure decisions over it: the refusal of a
// change in the run's state (the same rule the API applies to the row:
// domain/platform/ticket.rules.ts), what a step's result changes, what continue-as-new
// carries and what the query answers. Nothing here issues a command.
import type { ApplicationFailure } from '@temporalio/workflow';
import { platformNotFound } from '../../domain/platform/errors';
import { checkPlatformTicketChange, type PlatformTicketChangeKind } from '../../domain/platform/ticket.rules';
import type { PlatformTicketStatus } from '../../domain/platform/types';
import { asRefusal } from '../refusal';
import type { PlatformTicketCarried, PlatformTicketFacts, PlatformTicketInput, PlatformTicketStepResult, PlatformTicketWorkflowState } from './contract';

/** Everything one run knows of its ticket (ids, numbers and statuses: never its text). */
export interface PlatformTicketState {
  status: PlatformTicketStatus;
  /** the last stored step */
  version: number;
  assigneeId: string | null;
  /** ms: the soft delete's end; null when the ticket is not deleted */
  purgeAt: number | null;
  /** the row has vanished (purged by the timer, or with its workspace): the run ends */
  gone: boolean;
  /**
   * A step's number was `taken` (numbered-step.ts): the row holds steps of a lost workflow
   * task that this run never saw, so a change the state refuses may be one of them, applied
   * already. Never set by the answers of recorded histories (no `taken` in them).
   */
  unseenSteps: boolean;
  /** how many `taken` answers this run has met: what the SLA deadlines were read after (sla-timers.ts) */
  takenAnswers: number;
}

export function initialPlatformTicketState(input: PlatformTicketInput, carried?: PlatformTicketCarried): PlatformTicketState {
  if (carried) {
    return { status: carried.status, version: carried.version, assigneeId: carried.assigneeId, purgeAt: carried.purgeAt ? Date.parse(carried.purgeAt) : null, gone: false, unseenSteps: false, takenAnswers: 0 };
  }
  return { status: 'open', version: 1, assigneeId: input.assigneeId, purgeAt: null, gone: false, unseenSteps: false, takenAnswers: 0 };
}

export const isDeleted = (s: PlatformTicketState): boolean => s.purgeAt !== null;

/** The refusal of `kind` in the run's state at `now`, or null when it is taken. */
export function refusalOf(input: PlatformTicketInput, s: PlatformTicketState, kind: PlatformTicketChangeKind, now: number, requested?: PlatformTicketStatus): ApplicationFailure | null {
  if (s.gone) return asRefusal(platformNotFound('ticket', input.ticketId));
  const r = checkPlatformTicketChange(input.ticketId, { status: s.status, purgeAt: s.purgeAt, deleted: isDeleted(s) }, kind, now, requested);
  return r && asRefusal(r);
}

/** Takes a step's result into the state (a `taken` one's facts too); false when the row has vanished. */
export function takeResult(s: PlatformTicketState, result: PlatformTicketStepResult): boolean {
  if ('gone' in result) {
    s.gone = true;
    return false;
  }
  if ('taken' in result) {
    s.unseenSteps = true;
    s.takenAnswers++;
  }
  takeFacts(s, result);
  return true;
}

function takeFacts(s: PlatformTicketState, f: PlatformTicketFacts): void {
  s.version = f.version;
  s.status = f.status;
  s.assigneeId = f.assigneeId;
  s.purgeAt = f.purgeAt ? Date.parse(f.purgeAt) : null;
}

export const carriedOf = (s: PlatformTicketState): PlatformTicketCarried => ({
  status: s.status,
  version: s.version,
  assigneeId: s.assigneeId,
  purgeAt: s.purgeAt === null ? null : new Date(s.purgeAt).toISOString(),
});

export const describe = (s: PlatformTicketState): PlatformTicketWorkflowState => ({ ...carriedOf(s), deleted: isDeleted(s) });

// One numbered step of the platform ticket workflow, under its step key (docs/platform.md,
// "Step keys"; the activity's rules: domain/platform/step-log.ts). A workflow task lost
// after its local activities committed leaves the row ahead of the run's state; the
// retried task may run its pending changes in another order, so a change can meet its
// number `taken` by another. It then takes the row's facts, is checked again (it may be
// refused now: the answer it would have had in that order) and asks with the next number,
// until it is stored or refused.
//
// The histories recorded before step keys hold no `taken` answer, so in them this is the
// one activity call and the one check the code before made: they replay unchanged (no
// patch marker). histories/platform-ticket-lost-task.json records the loop itself.
import type { PlatformTicketChange, PlatformTicketFollowUps } from './contract';
import { storage } from './platform-ticket-activities';
import { takeResult, type PlatformTicketState } from './platform-ticket-state';

/** How a step ended: stored (now, or already under its key), refused (what `refusal` said), or the row gone. */
export type StepEnd<R> = { stored: true; asked: number; followUps?: PlatformTicketFollowUps } | { refused: R } | { gone: true };

export interface KeyedStep<R> {
  ticketId: string;
  /** the change's step key: `update:<Update id>`, `automation:<rule id>:<origin>` */
  key: string;
  change: PlatformTicketChange;
  /** the change's acceptance check on the run's state: null, or why it is refused */
  refusal: () => R | null;
  /**
   * An Update's change, whose caller waits for its answer: once the run has met steps it
   * did not make (state.unseenSteps), a refusal is first checked against the step log,
   * since the change may be one of those steps (the lost task applied it, then a change
   * after it moved the state). A rule's step is not (its rounds just stop).
   */
  answersCaller: boolean;
}

/** Stores `s.change` as the next step, as a loop over `taken` answers. Call it holding the change lock. */
export async function storeStep<R>(state: PlatformTicketState, s: KeyedStep<R>): Promise<StepEnd<R>> {
  for (;;) {
    if (state.gone) return { gone: true };
    const refused = s.refusal();
    if (refused && !(s.answersCaller && state.unseenSteps)) return { refused };
    // refused, with unseen steps: the log is asked whether its key made a step (as stored),
    // or not (`taken`); nothing applied
    const asked = state.version + 1;
    const step = { ticketId: s.ticketId, version: asked, at: new Date().toISOString(), change: s.change, key: s.key };
    const result = await storage.applyPlatformTicketStep(refused ? { ...step, onlyIfStored: true } : step);
    if (!takeResult(state, result)) return { gone: true };
    // what follows a patch or a reply, when the step's activity read it (domain/platform/step-follow-ups.ts)
    if (!('taken' in result)) return 'followUps' in result && result.followUps ? { stored: true, asked, followUps: result.followUps } : { stored: true, asked };
    // taken: the row's facts are the state's now; asked again only if the check still takes it
    const still = s.refusal();
    if (still) return { refused: still };
  }
}

/**
 * The step key of a rule's step: the rule and the change it follows (`created`, or the
 * Update's key). Never from the clock: the same on replay and on a retried workflow task,
 * so a rule that fired for a change in a lost task is answered as stored when the retried
 * task asks again. Unique per ticket: a rule fires at most once per originating change
 * (automations.ts), and a ticket is created once (only a first run has the `created` round).
 */
export const automationKey = (automationId: string, origin: string) => `automation:${automationId}:${origin}`;

/** The origin of the `ticket.created` round. */
export const CREATED_ORIGIN = 'created';

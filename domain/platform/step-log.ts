// Which change a platform ticket's step number belongs to (docs/platform.md, "Step keys").
// The workflow numbers its steps (state.version + 1) and a local activity stores each in
// one transaction. A workflow task can be lost after its local activities committed (the
// worker dies before the task completes: their results never reach the history); the
// retried task may take its pending Updates in another order and ask for a stored number
// with another change. The number alone cannot tell a retry of the same change from
// another change, so every step names its change (`key`) and the step log
// (platform_ticket_steps) keeps which key made which number.
import type { Executor } from '../../db/db';
import { platformTicketStepLog } from '../../db/repositories/platform-tickets';
import { afterStoredSteps, automationStepStored } from './automation-step';
import { factsOf, type PlatformTicketStep, type PlatformTicketStepResult } from './ticket-step';
import type { PlatformTicketRecord } from './types';

/**
 * What a step request meets on the locked row `t`, before anything is applied: the answer
 * when it is not to be applied (`answer`), or the step to apply (`apply`; the caller still
 * refuses a gap: the row must be at its number − 1, and logs a keyed step it applies).
 *
 * With a key:
 * a. the key is in the log: the change is applied already (the lost task's): answered as
 *    stored, the row's current facts; nothing applied twice, no event recorded twice;
 * b. else the row is at or past the number and a keyed change made that number: it belongs
 *    to another change: `taken`, with the row's current facts; the workflow re-checks the
 *    change and asks with the next number;
 * c. else, below the row's number: applied as asked;
 * and `onlyIfStored` (the workflow's question before it refuses): a., else `taken`.
 * Without a key (d, code before step keys), and for a number stored without one (a task of
 * the older code lost at a deploy, retried by this code: the key of its step is not in the
 * log, and `taken` would apply it twice): the number alone, as before. A stored number
 * answers as stored, except a rule's step whose number another rule took, which is
 * renumbered after the stored steps (automation-step.ts, afterStoredSteps).
 */
export async function stepLogAnswer(m: Executor, t: PlatformTicketRecord, step: PlatformTicketStep): Promise<{ answer: PlatformTicketStepResult } | { apply: PlatformTicketStep }> {
  if (step.key !== undefined) {
    const log = await platformTicketStepLog(m, t.id, step.key, step.version);
    if (log.keyStored) return { answer: factsOf(t) };
    if (step.onlyIfStored || (t.version >= step.version && log.numberLogged)) return { answer: { ...factsOf(t), taken: true } };
  }
  if (t.version < step.version) return { apply: step };
  // a retry of a step already stored answers it; a rule's step only if that rule made it
  if (step.change.kind !== 'automation' || (await automationStepStored(m, t.id, step.version, step.change.automationId))) return { answer: factsOf(t) };
  return { apply: afterStoredSteps(t, step) };
}

// A platform ticket's automations, run by its workflow (docs/platform.md, "Automations"):
// after the ticket is created (the first run's start) and after each PATCH or reply
// (the changes users make that record `ticket.updated`), under the change lock.
//
// One "originating change" is followed in rounds. Round 1 asks for the active rules of
// the change's trigger that would fire on the ticket as stored now, and applies each as
// its own numbered step (`{kind: 'automation', automationId, trigger}`), which re-reads
// the rule and the row and may still not fire. If any fired, their changes recorded
// `ticket.updated`, so the next round asks for the `ticket.updated` rules, leaving out
// every rule that has fired for this originating change; rounds end when one fires
// nothing. So a rule fires at most once per originating change (A→B works, A→A and
// A→B→A stop), and at most every rule of the workspace once (100 per workspace and
// environment). Guarded by `patched('platform-ticket-automations')`: runs recorded before
// it replay without these commands.
import { patched } from '@temporalio/workflow';
import type { AutomationTrigger } from '../../domain/platform/automation.rules';
import type { PlatformTicketInput } from './contract';
import { automationKey, storeStep } from './numbered-step';
import { storage } from './platform-ticket-activities';
import { isDeleted, type PlatformTicketState } from './platform-ticket-state';

export const AUTOMATIONS_PATCH = 'platform-ticket-automations';

/** Whether rules may still act on the ticket: not gone, deleted or closed (closed is terminal). */
const takesAutomations = (s: PlatformTicketState) => !s.gone && !isDeleted(s) && s.status !== 'closed';

/**
 * Runs the rules that follow one originating change of `trigger` (`origin`: its step key,
 * or `created`; each rule's step key names both: numbered-step.ts automationKey);
 * `firstRound`: the rules of round 1 when the change's own step matched them. Call it
 * while holding the ticket's change lock: its steps are numbered after the state's version.
 * Answers how many rules fired (their changes may have moved the SLA deadlines: the caller
 * re-reads them).
 */
export async function runAutomations(
  input: PlatformTicketInput,
  state: PlatformTicketState,
  trigger: AutomationTrigger,
  origin: string,
  firstRound?: string[],
): Promise<number> {
  if (!patched(AUTOMATIONS_PATCH)) return 0;
  const fired: string[] = [];
  // round 1's rules, when the originating step's activity matched them (domain/platform/step-follow-ups.ts)
  let matched = firstRound;
  for (let round: AutomationTrigger = trigger; takesAutomations(state); round = 'ticket.updated') {
    const ids = matched ?? (await storage.matchPlatformAutomations({ ticketId: input.ticketId, trigger: round, exclude: fired }));
    matched = undefined;
    const before = fired.length;
    for (const automationId of ids) {
      const change = { kind: 'automation' as const, automationId, trigger: round };
      const refusal = () => (takesAutomations(state) ? null : 'stop');
      const end = await storeStep(state, { ticketId: input.ticketId, key: automationKey(automationId, origin), change, refusal, answersCaller: false });
      if (!('stored' in end)) return fired.length; // the ticket takes no more rules, or the row vanished (the workflow ends)
      // stored as the number asked: it fired. A rule that does not fire leaves the version; one
      // a lost task stored, answered with the row's later version, is not counted: its key
      // keeps it from being applied again if a later round asks again, and counting it would
      // change the rounds of recorded runs whose later version came from afterStoredSteps.
      if (state.version === end.asked) fired.push(automationId);
    }
    if (fired.length === before) return fired.length;
  }
  return fired.length;
}

// Automations applied to a platform ticket by its workflow (docs/platform.md,
// "Automations"). Two reads over the stored ticket: which active rules of its workspace
// and environment match it now (the matching activity; ids only, in the order they run),
// and, inside the step's transaction on the locked row, what one rule's actions still
// change. A rule that is gone, inactive, of another trigger, whose conditions no longer
// hold or none of whose actions would change anything does not fire: its step is not
// stored (the ticket keeps its version) and nothing is recorded.
import type { Executor, SqlExecutor } from '../../db/db';
import { automationEventStored, findPlatformAutomation, listActivePlatformAutomations } from '../../db/repositories/platform-automations';
import { findPlatformTicket, isActivePlatformWorker } from '../../db/repositories/platform-tickets';
import { applicableActions, assigneesOf, conditionsHold, type AutomationFiredData, type AutomationMatchQuery, type AutomationTrigger, type PlatformAutomationRecord } from './automation.rules';
import type { PlatformTicketChange, PlatformTicketStep } from './ticket-step';
import type { PlatformTicketRecord } from './types';

const takesAutomations = (t: PlatformTicketRecord) => t.deletedAt === null && t.status !== 'closed';

/** What a rule would do to the ticket now: the actions that apply and their change, or null when it does not fire. */
async function effectOf(executor: SqlExecutor, t: PlatformTicketRecord, rule: PlatformAutomationRecord | null, trigger: AutomationTrigger) {
  if (!rule || !rule.active || rule.trigger !== trigger || rule.workspaceId !== t.workspaceId || rule.environment !== t.environment) return null;
  if (!conditionsHold(t, rule.conditions)) return null;
  const active = new Set<string>();
  for (const userId of assigneesOf(rule.actions)) if (await isActivePlatformWorker(executor, t.workspaceId, userId)) active.add(userId);
  const effect = applicableActions(t, rule.actions, (id) => active.has(id));
  return effect.applied.length ? effect : null;
}

/** The ids of the active rules of `trigger` that would fire on the ticket as stored now (none for a deleted, closed or vanished ticket). */
export async function matchPlatformAutomations(executor: SqlExecutor, q: AutomationMatchQuery): Promise<string[]> {
  const t = await findPlatformTicket(executor, q.ticketId);
  if (!t || !takesAutomations(t)) return [];
  const ids: string[] = [];
  for (const rule of await listActivePlatformAutomations(executor, t.workspaceId, t.environment, q.trigger)) {
    if (!q.exclude.includes(rule.id) && (await effectOf(executor, t, rule, q.trigger))) ids.push(rule.id);
  }
  return ids;
}

/**
 * One rule's step on the locked row: the PATCH-shaped change its applicable actions make
 * and its `automation.fired` data, or null when it does not fire (then no step is stored).
 */
export async function planAutomationStep(
  m: Executor,
  t: PlatformTicketRecord,
  c: Extract<PlatformTicketChange, { kind: 'automation' }>,
): Promise<{ patch: Extract<PlatformTicketChange, { kind: 'patch' }>; fired: AutomationFiredData } | null> {
  if (!takesAutomations(t)) return null;
  const effect = await effectOf(m, t, await findPlatformAutomation(m, c.automationId), c.trigger);
  if (!effect) return null;
  return {
    patch: { kind: 'patch', ...effect.change },
    fired: { automation_id: c.automationId, ticket_id: t.id, trigger: c.trigger, actions: effect.applied },
  };
}

/** The dedupe key of a rule's `automation.fired` at a step: per ticket, step and rule. */
export const automationFiredKey = (ticketId: string, version: number, automationId: string) => `platform-ticket:${ticketId}:${version}:automation.fired:${automationId}`;

/** Whether the rule made the step `version` of the ticket (its `automation.fired` is recorded); keyless requests only (step-log.ts). */
export const automationStepStored = (m: Executor, ticketId: string, version: number, automationId: string) =>
  automationEventStored(m, automationFiredKey(ticketId, version, automationId));

/**
 * A rule's step whose number another step took. Local activities reach the history when
 * the workflow task completes: a worker that died after committing some rule steps re-runs
 * the task, and the matching activity, asked again, meets a row that already carries them.
 * The rule that comes next then asks for a number already stored; it is checked on the
 * row as it is and, if it fires, stored as the next step instead, so it is neither lost
 * nor applied twice (the workflow takes the row's version from the answer).
 * Requests without a step key only (step-log.ts, rule d): a keyed rule step is answered
 * from the step log instead, as every other keyed step is (this check and the next are
 * kept for the workers of the code before step keys, during a deploy).
 */
export const afterStoredSteps = (t: PlatformTicketRecord, step: PlatformTicketStep): PlatformTicketStep => ({ ...step, version: t.version + 1 });

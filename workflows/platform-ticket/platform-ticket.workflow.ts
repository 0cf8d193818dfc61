import { allHandlersFinished, condition, continueAsNew, setHandler, workflowInfo, type ApplicationFailure } from '@temporalio/workflow';
import { platformNotFound } from '../../domain/platform/errors';
import { unassignApplies, type PlatformTicketChangeKind } from '../../domain/platform/ticket.rules';
import type { PlatformTicketStatus } from '../../domain/platform/types';
import { Mutex } from '../mutex';
import { asRefusal } from '../refusal';
import {
  deleteTicketUpdate,
  patchTicketUpdate,
  platformTicketStateQuery,
  replyTicketUpdate,
  restoreTicketUpdate,
  unassignUserUpdate,
  type PlatformTicketCarried,
  type PlatformTicketChange,
  type PlatformTicketChangeReply,
  type PlatformTicketInput,
} from './contract';
import { runAutomations } from './automations';
import { CREATED_ORIGIN, storeStep } from './numbered-step';
import { thisUpdateKey } from '../update-step-key';
import { storage } from './platform-ticket-activities';
import { carriedOf, describe, initialPlatformTicketState, isDeleted, refusalOf } from './platform-ticket-state';
import { riskWatch } from './risk';
import { SlaTimers } from './sla-timers';

/**
 * One workflow per platform ticket (`platform-ticket/<tkt_id>`), started from the
 * workflow-start outbox with the row the API stored: the single writer of its ticket.
 * Its state table (docs/platform.md, "Tickets"):
 *
 * | state                  | accepts (Updates)                                                 | timers |
 * |------------------------|-------------------------------------------------------------------|--------|
 * | open, pending, resolved| patch (status by the transition table: 409 otherwise), reply, delete, unassignUser | SLA first response, SLA resolution (sla-timers.ts) |
 * | closed → run ends      | (a new run under the same id, started by DELETE with the row's facts, takes delete; patch and reply: 409 from the row) | — |
 * | deleted (soft)         | restore (410 gone from purge_at on), unassignUser; the rest 404   | purge at deleted_at + 30 d |
 * | purged / row vanished  | the run ends; a change still in flight: 404                       | —      |
 *
 * The transition table (domain/platform/ticket.rules.ts): open → pending, resolved,
 * closed; pending → open, resolved, closed; resolved → open, closed; closed terminal.
 * A restored ticket goes back to the status it had (a closed one: its run ends again).
 * Every change is validated (the API's synchronous 409/404/410), then applied as the next
 * numbered step, one at a time under the lock, re-checked once it holds it; each step
 * names its change (its step key: numbered-step.ts), so a number a lost workflow task
 * gave to another change is asked again, not mistaken for this one's. The
 * workspace's automations follow the create and each patch or reply under the same lock,
 * each rule that fires as a step of its own (automations.ts).
 */
export async function platformTicketWorkflow(input: PlatformTicketInput, carried?: PlatformTicketCarried): Promise<'closed' | 'purged'> {
  const state = initialPlatformTicketState(input, carried);
  const oneChangeAtATime = new Mutex();
  const sla = new SlaTimers(input.ticketId, state, oneChangeAtATime, carried?.sla);
  const gone = () => asRefusal(platformNotFound('ticket', input.ticketId));

  const refusal = (kind: PlatformTicketChangeKind, requested?: PlatformTicketStatus) => () => refusalOf(input, state, kind, Date.now(), requested);
  /**
   * An Update's validator. Once the run has met steps it did not make (a lost workflow
   * task's: numbered-step.ts), the state may refuse a change that is one of them (applied,
   * then moved past by a later one): the handler decides, from the step log.
   */
  const validate = (kind: PlatformTicketChangeKind, requested?: PlatformTicketStatus): void => {
    const refused = state.unseenSteps ? null : refusal(kind, requested)();
    if (refused) throw refused;
  };
  /** Stores `change` as the next step under the lock (re-checked once held, and after a `taken` number). */
  const step = (key: string, change: PlatformTicketChange, refused: () => ApplicationFailure | null): Promise<PlatformTicketChangeReply> =>
    oneChangeAtATime.runExclusive(async () => {
      const end = await storeStep(state, { ticketId: input.ticketId, key, change, refusal: refused, answersCaller: true });
      if ('gone' in end) throw gone();
      if ('refused' in end) throw end.refused;
      // what follows the step, as its activity read it when it did (domain/platform/step-follow-ups.ts)
      const { followUps } = end;
      await sla.afterStep(change, followUps?.sla);
      if ((change.kind === 'patch' || change.kind === 'reply') && (await runAutomations(input, state, 'ticket.updated', key, followUps?.automations))) await sla.afterAutomations(); // automations.ts
      return { ticketId: input.ticketId, version: state.version, status: state.status, changed: true };
    });
  const unchanged = (): PlatformTicketChangeReply => ({ ticketId: input.ticketId, version: state.version, status: state.status, changed: false });

  // risk signals (./risk.ts): the created ticket once, at its first run's start; each reply once published
  const risk = riskWatch(input.ticketId, input.riskInTask);
  if (!carried) risk.assessTicket();

  // ── what each state accepts ──
  setHandler(platformTicketStateQuery, () => describe(state));
  setHandler(patchTicketUpdate, (change) => step(thisUpdateKey(), { kind: 'patch', ...change }, refusal('patch', change.status)), { validator: (change) => validate('patch', change.status) });
  setHandler(replyTicketUpdate, ({ replyId }) => step(thisUpdateKey(), { kind: 'reply', replyId }, refusal('reply')).then((reply) => (risk.assessReply(replyId), reply)), {
    validator: (_reply) => validate('reply'),
  });
  setHandler(deleteTicketUpdate, () => step(thisUpdateKey(), { kind: 'delete' }, refusal('delete')), { validator: () => validate('delete') });
  setHandler(restoreTicketUpdate, () => step(thisUpdateKey(), { kind: 'restore' }, refusal('restore')), { validator: () => validate('restore') });
  setHandler(unassignUserUpdate, ({ userId }) => {
    const key = thisUpdateKey();
    return oneChangeAtATime.runExclusive(async () => {
      const refused = () => (unassignApplies(state, userId) ? null : 'not theirs');
      const end = await storeStep(state, { ticketId: input.ticketId, key, change: { kind: 'unassign', userId }, refusal: refused, answersCaller: true });
      return 'stored' in end ? { ...unchanged(), changed: true } : unchanged();
    });
  });

  // ── the purge timer: fires only if, once the lock is held, the ticket is still deleted and due ──
  const purgeIfDue = () =>
    oneChangeAtATime.runExclusive(async () => {
      if (!isDeleted(state) || state.gone || state.purgeAt! > Date.now()) return;
      if ((await storage.purgePlatformTicket(input.ticketId)) === 'purged') state.gone = true;
      else state.purgeAt = null; // cannot happen while this run is the only writer
    });

  // ── created: the workspace's `ticket.created` automations (a first run only) ──
  if (!carried) await oneChangeAtATime.runExclusive(async () => (await runAutomations(input, state, 'ticket.created', CREATED_ORIGIN)) && sla.afterAutomations());

  // ── open / pending / resolved, deleted: wait for the next step or the purge ──
  for (;;) {
    if (state.gone) break;
    const seen = state.version;
    const moved = () => state.version !== seen || state.gone;
    if (isDeleted(state)) {
      if (!(await condition(moved, Math.max(state.purgeAt! - Date.now(), 1)))) await purgeIfDue();
    } else if (state.status === 'closed') {
      // closed: the run ends once no change is in flight (one may have deleted it meanwhile)
      await condition(allHandlersFinished);
      if (state.status === 'closed' && !isDeleted(state)) break;
    } else {
      // open, pending, resolved: until the next SLA deadline (sla-timers.ts), if any
      const due = await sla.next();
      if (!due) await condition(moved);
      else if (!(await condition(moved, Math.max(due.at - Date.now(), 1)))) await sla.fire(due);
    }
    if (workflowInfo().continueAsNewSuggested && !oneChangeAtATime.locked && !state.gone) {
      await condition(allHandlersFinished);
      await risk.settled();
      await continueAsNew<typeof platformTicketWorkflow>(input, { ...carriedOf(state), sla: sla.carried });
    }
  }
  // ── closed, or purged / vanished: the run ends ──
  await condition(allHandlersFinished);
  await risk.settled();
  return state.gone ? 'purged' : 'closed';
}

import { allHandlersFinished, condition, continueAsNew, setHandler, workflowInfo } from '@temporalio/workflow';
import { thisUpdateKey } from '../update-step-key';
import { nextDeadline, type ChangeKind, type Deadline } from '../../domain/tickets/rules';
import type { TicketStatus } from '../../domain/tickets/types';
import { Mutex } from '../mutex';
import type { LifecycleChange } from './activities.contract';
import {
  assignUpdate,
  createdUpdate,
  deleteUpdate,
  messageUpdate,
  patchUpdate,
  resolveUpdate,
  stateQuery,
  type Actor,
  type ChangeReply,
  type CreateTicketInput,
} from './contract';
import { applyChange, sendResolutionNotification, storeTicket, triageTicket } from './ticket-steps';
import { breachPolicy, deadlineChange, deadlineKey, describe, initialTicketState, isFinal, isStillDue, refusalOf, type CarriedState } from './ticket-state';

export type { CarriedState } from './ticket-state';

/**
 * One workflow per ticket (`ticket/<tkt_id>`): the single writer of its ticket. Its state
 * table (docs/workflows.md, "The ticket workflow"):
 *
 * | state                 | accepts                                              | timers                          |
 * |-----------------------|------------------------------------------------------|---------------------------------|
 * | created               | `created` (waits); a change waits if the row is stored, else ticket_not_ready | —      |
 * | open, in_progress     | patch, assign, addMessage, resolve, delete           | SLA first response, SLA resolution |
 * | resolved              | the same (resolve refused, patch to open/in_progress/closed) | auto-close                |
 * | closed → run ends     | (endedTicketWorkflow takes delete; the rest 409/422) | —                               |
 * | deleted → run ends    | nothing: ticket_not_found                            | —                               |
 *
 * Which change a status accepts is domain/tickets/rules.ts `checkChange`; which timer is
 * due is its `nextDeadline`. Every change is validated (the API's synchronous 409/422),
 * then applied as the next numbered step, one at a time.
 */
export async function ticketWorkflow(input: CreateTicketInput, carried?: CarriedState): Promise<string> {
  const state = initialTicketState(input, carried);
  // a validator may pass against a state that an earlier change then moves on: changes
  // run one at a time, each re-checked once it holds the lock
  const oneChangeAtATime = new Mutex();

  /**
   * Applies one step under the lock once the ticket exists; `recheck` throws to skip it,
   * unless the change is known to be stored already (`storedKeys`: it is answered as stored).
   */
  const step = (change: LifecycleChange, actor: Actor | null, key: string, recheck: () => void, at?: number): Promise<ChangeReply> =>
    oneChangeAtATime.runExclusive(async () => {
      const check = () => (state.storedKeys.includes(key) ? undefined : recheck());
      check();
      return applyChange(input, state, { change, actor, key, recheck: check }, at);
    }, () => state.ticket !== null);
  const accept = (kind: ChangeKind, requested?: TicketStatus): void => {
    const refused = refusalOf(input, state, kind, requested);
    if (refused) throw refused;
  };
  /** A validator's check: the Update's own change, already stored, is never refused. */
  const validate = (kind: ChangeKind, requested?: TicketStatus): void => {
    if (!state.storedKeys.includes(thisUpdateKey())) accept(kind, requested);
  };

  // ── what each state accepts ──
  setHandler(stateQuery, () => describe(state));
  setHandler(createdUpdate, async () => {
    await condition(() => state.created !== null || state.creationFailure !== null);
    if (!state.created) throw state.creationFailure!;
    return state.created;
  });
  setHandler(patchUpdate, (change, actor) => step({ kind: 'patch', ...change }, actor, thisUpdateKey(), () => accept('patch', change.status)), {
    validator: (change, _actor) => validate('patch', change.status),
  });
  setHandler(assignUpdate, (change, actor) => step({ kind: 'assign', ...change }, actor, thisUpdateKey(), () => accept('assign')), {
    validator: (_change, _actor) => validate('assign'),
  });
  setHandler(messageUpdate, (change, actor) => step({ kind: 'message', ...change }, actor, thisUpdateKey(), () => accept('message')), {
    validator: (_change, _actor) => validate('message'),
  });
  setHandler(
    resolveUpdate,
    async (change, actor) => {
      const result = await step({ kind: 'resolve', ...change }, actor, thisUpdateKey(), () => accept('resolve'));
      // the email is keyed by the step the resolve was stored as (a resolve stored by a lost task: that step)
      const sent = change.sendNotification ? await sendResolutionNotification(input, result.version) : false;
      return { ...result, notificationSent: sent };
    },
    { validator: (_change, _actor) => validate('resolve') },
  );
  setHandler(
    deleteUpdate,
    async (actor) => {
      await step({ kind: 'delete' }, actor, thisUpdateKey(), () => accept('delete'));
      return { deleted: true as const };
    },
    { validator: (_actor) => validate('delete') },
  );

  // ── the timers: a deadline fires only if, once the lock is held, it is still due ──
  class DeadlineMoved extends Error {}
  async function fire({ kind, at }: Deadline): Promise<void> {
    const stillDue = () => {
      if (!isStillDue(state.ticket!.facts, kind, Date.now())) throw new DeadlineMoved();
    };
    try {
      await step(deadlineChange(kind), null, deadlineKey(kind, at), stillDue, at);
      if (kind !== 'auto_close') state.ticket!.facts.breached[breachPolicy(kind)] = true;
    } catch (err) {
      if (!(err instanceof DeadlineMoved)) throw err;
    }
  }

  // ── created: store (or load the settings of) the ticket, then triage it ──
  if (!state.ticket) {
    const stored = await storeTicket(input);
    if ('failure' in stored) {
      // no ticket without a workflow, and no workflow without a ticket: end here
      state.creationFailure = stored.failure;
      await condition(allHandlersFinished);
      return 'creation_failed';
    }
    state.ticket = stored.ticket;
    state.created = { ticketId: input.ticketId, version: 1 };
    await triageTicket(input);
  }

  // ── open / in_progress / resolved: sleep until the next deadline or the next step ──
  while (!isFinal(state)) {
    const seen = state.ticket!.version;
    const due = nextDeadline(state.ticket!.facts);
    const moved = () => state.ticket!.version !== seen || state.deleted;
    const changed = due ? await condition(moved, Math.max(due.at - Date.now(), 1)) : (await condition(moved), true);
    if (!changed && due) await fire(due);
    if (workflowInfo().continueAsNewSuggested && !oneChangeAtATime.locked) {
      await condition(allHandlersFinished);
      // the next run never stores or triages: it starts without the ticket's text
      const storedKeys = state.storedKeys.length ? { storedKeys: state.storedKeys } : {}; // rare: see ticket-state.ts
      await continueAsNew<typeof ticketWorkflow>({ ...input, title: '', body: '', tags: [], metadata: {} }, { ...state.ticket!, ...storedKeys });
    }
  }
  // ── closed or deleted: the run ends ──
  await condition(allHandlersFinished);
  return state.deleted ? 'deleted' : 'closed';
}

// The ticket workflow's updates and query: every change is validated (the API's
// synchronous 409/422), then applied as the next numbered step under the change lock.
import { condition, setHandler, upsertSearchAttributes } from '@temporalio/workflow';
import { checkChange, nextDeadline, type ChangeKind } from '../../domain/tickets/rules';
import type { TicketStatus } from '../../domain/tickets/types';
import type { AppliedChange, ApplyChangeRequest, LifecycleChange } from './activities.contract';
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
  type TicketFacts,
} from './contract';
import { side, storage, type TicketRun } from './ticket-run';
import { refusal } from '../refusal';

/**
 * The facts in a stored step's result. Results recorded before replies became small
 * (histories of tickets created until Nov 2026, e.g. ticket-lifecycle-2026-11-full-
 * records.json) carry the whole row as `ticket`; both shapes replay (docs/workflows.md).
 */
function factsAfter(result: AppliedChange | { ticket: TicketFacts }): TicketFacts {
  return 'facts' in result ? result.facts : result.ticket;
}

function rejectIfInvalid(run: TicketRun, kind: ChangeKind, requested?: TicketStatus): void {
  if (!run.state) {
    // a stored ticket exists already: a change that arrives with the start (update-with-
    // start) or before the settings are loaded waits for them and is checked then
    if (run.input.stored) return;
    throw refusal('conflict', 'ticket_not_ready', 'The ticket is still being created; retry in a moment');
  }
  if (run.deleted) throw refusal('not_found', 'ticket_not_found', `No ticket with id '${run.input.ticketId}' in this workspace`); // api/ticketing/errors.ts ticketNotFound
  const rejection = checkChange(run.state.facts.status, kind, requested);
  if (rejection) throw refusal(rejection.kind, rejection.type, rejection.message);
}

/**
 * Applies one step. Changes run one at a time, each re-checked once it holds the lock,
 * because a validator may have passed against a state that an earlier change then
 * moved on. `at` (ms) is the step's time when it is not now (a deadline).
 */
export async function apply(
  run: TicketRun,
  change: LifecycleChange,
  actor: Actor | null,
  recheck?: () => void,
  at?: number,
): Promise<ChangeReply> {
  const { input } = run;
  await condition(() => !run.busy && run.state !== null);
  run.busy = true;
  try {
    recheck?.();
    const state = run.state!;
    const req: ApplyChangeRequest = { ticketId: input.ticketId, version: state.version + 1, at: new Date(at ?? Date.now()).toISOString(), change, actor };
    const wasResolved = state.facts.status === 'resolved';
    const result = await storage.applyTicketChange(req);
    state.version = req.version;
    if (change.kind === 'delete') run.deleted = true;
    if (result) absorb(run, factsAfter(result));
    if (!wasResolved && state.facts.status === 'resolved') {
      // the workspace threshold in force when the ticket is resolved applies to it
      state.facts.autoCloseHours = (await storage.loadWorkspaceSettings({ workspaceId: input.workspaceId })).autoCloseHours;
    }
    return { ticketId: input.ticketId, version: req.version, status: state.facts.status };
  } finally {
    run.busy = false;
  }
}

function absorb(run: TicketRun, t: TicketFacts): void {
  const state = run.state!;
  const ms = (iso: string | null) => (iso ? Date.parse(iso) : null);
  Object.assign(state.facts, { status: t.status, priority: t.priority, resolvedAt: ms(t.resolvedAt), firstResponseAt: ms(t.firstResponseAt) });
  state.assigneeId = t.assigneeId;
  if (run.input.searchAttributes) upsertSearchAttributes({ TicketStatus: [t.status], TicketPriority: [t.priority] });
}

/** The state query, the `created` update and the five change updates of one run. */
export function setChangeHandlers(run: TicketRun): void {
  const reject = (kind: ChangeKind, requested?: TicketStatus) => rejectIfInvalid(run, kind, requested);

  setHandler(stateQuery, () => {
    if (!run.state) return null;
    const d = nextDeadline(run.state.facts);
    return { status: run.state.facts.status, version: run.state.version, nextDeadline: d && { kind: d.kind, at: new Date(d.at).toISOString() } };
  });
  setHandler(createdUpdate, async () => {
    await condition(() => run.created !== null || run.creationFailure !== null);
    if (!run.created) throw run.creationFailure!;
    return run.created;
  });
  setHandler(patchUpdate, (change, actor) => apply(run, { kind: 'patch', ...change }, actor, () => reject('patch', change.status)), {
    validator: (change, _actor) => reject('patch', change.status),
  });
  setHandler(assignUpdate, (change, actor) => apply(run, { kind: 'assign', ...change }, actor, () => reject('assign')), {
    validator: (_change, _actor) => reject('assign'),
  });
  setHandler(messageUpdate, (change, actor) => apply(run, { kind: 'message', ...change }, actor, () => reject('message')), {
    validator: (_change, _actor) => reject('message'),
  });
  setHandler(
    resolveUpdate,
    async (change, actor) => {
      const result = await apply(run, { kind: 'resolve', ...change }, actor, () => reject('resolve'));
      const sent = change.sendNotification
        ? await side.sendResolutionNotification({ ticketId: run.input.ticketId, version: run.state!.version }).catch(() => false)
        : false;
      return { ...result, notificationSent: sent };
    },
    { validator: (_change, _actor) => reject('resolve') },
  );
  setHandler(
    deleteUpdate,
    async (actor) => {
      await apply(run, { kind: 'delete' }, actor, () => reject('delete'));
      return { deleted: true as const };
    },
    { validator: (_actor) => reject('delete') },
  );
}

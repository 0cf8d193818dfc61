import {
  ActivityFailure,
  ApplicationFailure,
  condition,
  continueAsNew,
  allHandlersFinished,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { WorkspaceSettings } from '../../lib/workspace-settings';
import type { AppliedChange, ApplyChangeRequest, LifecycleChange, TicketActivities } from './activities.contract';
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
  type CreatedReply,
  type CreateTicketInput,
  type TicketFacts,
} from './contract';
import { checkChange, nextDeadline, type ChangeKind, type Deadline, type TimerFacts } from '../../domain/tickets/rules';
import type { TicketStatus } from '../../domain/tickets/types';

// Storing the ticket is a few milliseconds of Postgres: local activities run it inside
// the workflow task, without a round trip through the server per step, which is what
// makes creates and updates fast. Triage and email stay ordinary activities.
const storage = proxyLocalActivities<TicketActivities>({
  startToCloseTimeout: '15 seconds',
  retry: { initialInterval: '200 ms', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});
// Creation gives up after ~6 s so a ticket that could not be stored ends its workflow.
const creation = proxyLocalActivities<TicketActivities>({
  startToCloseTimeout: '5 seconds',
  retry: { initialInterval: '200 ms', backoffCoefficient: 2, maximumAttempts: 6 },
});
const side = proxyActivities<TicketActivities>({
  startToCloseTimeout: '45 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumAttempts: 5 },
});

// Triage of tickets created through the outbox: retried for as long as an outage may last.
const triage = proxyActivities<TicketActivities>({
  startToCloseTimeout: '45 seconds',
  scheduleToCloseTimeout: '6 hours',
  // at most 10 s between attempts: once PostgreSQL is back, triage follows within seconds
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '10 seconds' },
});

class DeadlineMoved extends Error {}

/** What survives continue-as-new (ids, numbers and statuses: never the ticket's text). */
export interface CarriedState {
  facts: TimerFacts;
  version: number;
  assigneeId: string | null;
  workspaceId: string;
}

/**
 * The facts of an applied step. Results recorded before replies became small (histories
 * of tickets created until Nov 2026) carry the whole row as `ticket`; both replay.
 */
function factsOf(result: AppliedChange | { ticket: TicketFacts }): TicketFacts {
  return 'facts' in result ? result.facts : result.ticket;
}

/**
 * One workflow per ticket (`ticket/<tkt_id>`): the single writer of its ticket. It
 * stores the ticket, triages it, and owns the SLA and auto-close timers; every change
 * arrives as an Update whose validator gives the API its synchronous 409/422.
 */
export async function ticketWorkflow(input: CreateTicketInput, carried?: CarriedState): Promise<string> {
  let state: CarriedState | null = carried ?? null;
  let created: CreatedReply | null = carried ? { ticketId: input.ticketId, version: 1 } : null;
  let creationFailure: ApplicationFailure | null = null;
  let deleted = false;
  let busy = false;

  const rejectIfInvalid = (kind: ChangeKind, requested?: TicketStatus) => {
    if (!state) {
      // a stored ticket exists already: a change that arrives with the start (update-with-
      // start) or before the settings are loaded waits for them and is checked then
      if (input.stored) return;
      throw ApplicationFailure.nonRetryable('The ticket is still being created', 'ticket_not_ready');
    }
    if (deleted) throw ApplicationFailure.nonRetryable('The ticket was deleted', 'ticket_deleted');
    const rejection = checkChange(state.facts.status, kind, requested);
    if (rejection) throw ApplicationFailure.nonRetryable(rejection.message, rejection.type);
  };

  // Changes run one at a time, each re-checked once it holds the lock, because a
  // validator may have passed against a state that an earlier change then moved on.
  async function apply(
    change: LifecycleChange,
    actor: Actor | null,
    recheck?: () => void,
    at?: number,
  ): Promise<ChangeReply> {
    await condition(() => !busy && state !== null);
    busy = true;
    try {
      recheck?.();
      const req: ApplyChangeRequest = { ticketId: input.ticketId, version: state!.version + 1, at: new Date(at ?? Date.now()).toISOString(), change, actor };
      const wasResolved = state!.facts.status === 'resolved';
      const result = await storage.applyTicketChange(req);
      state!.version = req.version;
      if (change.kind === 'delete') deleted = true;
      if (result) absorb(factsOf(result));
      if (!wasResolved && state!.facts.status === 'resolved') {
        // the workspace threshold in force when the ticket is resolved applies to it
        state!.facts.autoCloseHours = (await storage.loadWorkspaceSettings({ workspaceId: input.workspaceId })).autoCloseHours;
      }
      return { ticketId: input.ticketId, version: req.version, status: state!.facts.status };
    } finally {
      busy = false;
    }
  }

  function absorb(t: TicketFacts) {
    const f = state!.facts;
    const ms = (iso: string | null) => (iso ? Date.parse(iso) : null);
    Object.assign(f, { status: t.status, priority: t.priority, resolvedAt: ms(t.resolvedAt), firstResponseAt: ms(t.firstResponseAt) });
    state!.assigneeId = t.assigneeId;
    if (input.searchAttributes) upsertSearchAttributes({ TicketStatus: [t.status], TicketPriority: [t.priority] });
  }

  setHandler(stateQuery, () => {
    if (!state) return null;
    const d = nextDeadline(state.facts);
    return { status: state.facts.status, version: state.version, nextDeadline: d && { kind: d.kind, at: new Date(d.at).toISOString() } };
  });
  setHandler(createdUpdate, async () => {
    await condition(() => created !== null || creationFailure !== null);
    if (!created) throw creationFailure!;
    return created;
  });
  setHandler(patchUpdate, (change, actor) => apply({ kind: 'patch', ...change }, actor, () => rejectIfInvalid('patch', change.status)), {
    validator: (change, _actor) => rejectIfInvalid('patch', change.status),
  });
  setHandler(assignUpdate, (change, actor) => apply({ kind: 'assign', ...change }, actor, () => rejectIfInvalid('assign')), {
    validator: (_change, _actor) => rejectIfInvalid('assign'),
  });
  setHandler(messageUpdate, (change, actor) => apply({ kind: 'message', ...change }, actor, () => rejectIfInvalid('message')), {
    validator: (_change, _actor) => rejectIfInvalid('message'),
  });
  setHandler(
    resolveUpdate,
    async (change, actor) => {
      const result = await apply({ kind: 'resolve', ...change }, actor, () => rejectIfInvalid('resolve'));
      const sent = change.sendNotification
        ? await side.sendResolutionNotification({ ticketId: input.ticketId, version: state!.version }).catch(() => false)
        : false;
      return { ...result, notificationSent: sent };
    },
    { validator: (_change, _actor) => rejectIfInvalid('resolve') },
  );
  setHandler(
    deleteUpdate,
    async (actor) => {
      await apply({ kind: 'delete' }, actor, () => rejectIfInvalid('delete'));
      return { deleted: true as const };
    },
    { validator: (_actor) => rejectIfInvalid('delete') },
  );

  if (!state) {
    let stored: { settings: WorkspaceSettings };
    try {
      // the API stored the row (the create outbox); earlier tickets' workflows inserted it
      stored = input.stored ? { settings: await storage.loadWorkspaceSettings({ workspaceId: input.workspaceId }) } : await creation.insertTicket(input);
    } catch (err) {
      // No ticket without a workflow, and no workflow without a ticket: end here.
      // a local activity's failure arrives as the ApplicationFailure itself, not wrapped
      const cause =
        err instanceof ApplicationFailure ? err : err instanceof ActivityFailure && err.cause instanceof ApplicationFailure ? err.cause : null;
      // the API answers these two with their own 4xx; anything else is a 503
      const answered = cause?.type === 'player_not_found' || cause?.type === 'ticket_quota_exceeded';
      creationFailure = ApplicationFailure.create({
        message: cause?.message ?? 'The ticket could not be stored',
        type: answered ? cause!.type! : 'creation_failed',
        nonRetryable: true,
        details: answered ? cause!.details ?? undefined : undefined,
      });
      await condition(allHandlersFinished);
      return 'creation_failed';
    }
    state = {
      facts: {
        status: 'open',
        priority: input.priority,
        createdAt: Date.parse(input.createdAt),
        resolvedAt: null,
        firstResponseAt: null,
        autoCloseHours: stored.settings.autoCloseHours,
        sla: stored.settings.sla,
        breached: { first_response: false, resolution: false },
      },
      version: 1,
      assigneeId: null,
      workspaceId: input.workspaceId,
    };
    created = { ticketId: input.ticketId, version: 1 };
    // Triage is retried until it is stored (an outage of PostgreSQL or of the classifier
    // must not leave a ticket untriaged, issue 18 item 6); only a failure that retrying
    // cannot help ends it, as triage is advisory: a ticket without it is still a ticket.
    await (input.stored ? triage : side)
      .triageTicket({ ticketId: input.ticketId })
      .catch(() => undefined);
  }

  while (!deleted && state.facts.status !== 'closed') {
    const seen = state.version;
    const due = nextDeadline(state.facts);
    const moved = () => state!.version !== seen || deleted;
    const changed = due ? await condition(moved, Math.max(due.at - Date.now(), 1)) : (await condition(moved), true);
    if (!changed && due) await fire(due);
    if (workflowInfo().continueAsNewSuggested && !busy) {
      await condition(allHandlersFinished);
      // the next run never stores or triages: it starts without the ticket's text
      await continueAsNew<typeof ticketWorkflow>({ ...input, title: '', body: '', tags: [], metadata: {} }, state);
    }
  }
  await condition(allHandlersFinished);
  return deleted ? 'deleted' : 'closed';

  // A deadline fires only if, once the change lock is held, it is still due: a change
  // that was in flight when the timer fired (a reply, a resolve) may have moved it.
  // Recorded at the deadline itself (closedAt = resolvedAt + threshold, breachedAt = deadline).
  async function fire({ kind, at }: Deadline) {
    const stillDue = () => {
      const d = nextDeadline(state!.facts);
      if (!d || d.kind !== kind || d.at > Date.now()) throw new DeadlineMoved();
    };
    const policy = kind === 'sla_first_response' ? 'first_response' : 'resolution';
    const change: LifecycleChange = kind === 'auto_close' ? { kind: 'auto_close' } : { kind: 'sla_breach', policy };
    try {
      await apply(change, null, stillDue, at);
      if (kind !== 'auto_close') state!.facts.breached[policy] = true;
    } catch (err) {
      if (!(err instanceof DeadlineMoved)) throw err;
    }
  }
}

import type { Db, Executor } from '../../db/db';
import { recordEvent, type EventType } from '../../db/repositories/events';
import { insertMessage } from '../../db/repositories/messages';
import { appendAudit } from '../../db/repositories/ticket-audit';
import { logStep, stepOfKey, stepsFrom } from '../../db/repositories/ticket-steps';
import { deleteTicket, findTicket, listMessages, lockTicketVersion, updateTicketColumns } from '../../db/repositories/tickets';
import { ticketNotFound, versionConflict } from './errors';
import { ticketEventData } from './events';
import { PRIORITY_RANK, statusAfterAssign, statusAfterMessage } from './rules';
import type { AppliedChange, ApplyChangeRequest, LifecycleChange, MessageRecord, TicketFacts, TicketRecord } from './types';

type Sets = Record<string, unknown>;

/** The facts the workflow keeps of a stored row: small, because the result goes into its history. */
export function ticketFacts(t: TicketRecord): TicketFacts {
  return { status: t.status, priority: t.priority, assigneeId: t.assigneeId, resolvedAt: t.resolvedAt, firstResponseAt: t.firstResponseAt };
}

/**
 * Applies one lifecycle step to the stored ticket. Steps are numbered by the workflow;
 * the row's `version` says which step was applied last. A step that names its change
 * (`req.key`, docs/tickets.md "Step keys") is applied once per key: a key already in the
 * step log is answered as stored (`storedAs`), and a number another key holds is
 * answered `taken` (nothing applied). A step without a key (runs started before the
 * log) keeps the number-only rule: a number already stored is answered as stored.
 * Refuses with ticket_not_found (except a delete of a ticket already gone: null) or
 * version_conflict (a step skipped).
 */
export async function applyTicketChange(db: Db, req: ApplyChangeRequest): Promise<AppliedChange | null> {
  return db.transaction(async (c) => {
    const version = await lockTicketVersion(c, req.ticketId);
    if (version === null) {
      if (req.change.kind === 'delete') return null;
      throw ticketNotFound(req.ticketId);
    }
    const facts = async () => ticketFacts((await findTicket(c, req.ticketId))!);
    if (req.key !== undefined) {
      // the same change asking again (a retried task, or one lost after its step committed)
      const storedAs = await stepOfKey(c, req.ticketId, req.key);
      if (storedAs !== null) return { version, facts: await facts(), storedAs };
    }
    if (version >= req.version) {
      // Another change holds the number when the log says so. A step stored before the
      // log has no key to compare (it may be this very change, retried across the
      // deploy that brought the log): the number-only rule, as before.
      const logged = req.key !== undefined ? await stepsFrom(c, req.ticketId, req.version) : [];
      if (logged[0]?.version !== req.version) return { version, facts: await facts() };
      return { version, facts: await facts(), taken: true, keys: logged.map((s) => s.key) };
    }
    if (version !== req.version - 1) {
      throw versionConflict(req.ticketId, version, req.version - 1);
    }

    const before = (await findTicket(c, req.ticketId))!;
    if (req.change.kind === 'delete') {
      await deleteTicket(c, req.ticketId);
      return null;
    }
    const { sets, events, audit } = plan(before, req.change, req.at);
    if (req.change.kind === 'message') {
      const m = req.change;
      await insertMessage(c, { id: m.messageId, ticketId: req.ticketId, authorId: m.authorId, authorType: m.authorType, body: m.body, createdAt: req.at });
    }
    sets.version = req.version;
    await updateTicketColumns(c, req.ticketId, sets);
    if (req.key !== undefined) await logStep(c, req.ticketId, req.version, req.key);
    if (audit) {
      await appendAudit(c, {
        ticketId: req.ticketId,
        action: req.change.kind,
        actor: req.actor?.keyId ?? 'system',
        note: audit.note ?? null,
        data: req.change,
        at: req.at,
      });
    }
    const result = await stored(c, req);
    for (const [i, type] of events.entries()) {
      const data =
        type === 'message.created'
          ? result.message
          : type === 'sla.breached'
            ? { ticketId: req.ticketId, policy: (req.change as any).policy, breachedAt: req.at }
            : ticketEventData(result.ticket);
      await recordEvent(c, {
        workspaceId: before.workspaceId,
        type,
        subjectId: req.ticketId,
        data,
        at: req.at,
        dedupeKey: `${req.ticketId}:${req.version}:${i}`,
      });
    }
    return { version: req.version, facts: ticketFacts(result.ticket) };
  });
}

/** The row (and the new message) as this step left them, for the events it records. */
async function stored(c: Executor, req: ApplyChangeRequest): Promise<{ ticket: TicketRecord; message?: MessageRecord }> {
  const ticket = (await findTicket(c, req.ticketId))!;
  if (req.change.kind !== 'message') return { ticket };
  const id = req.change.messageId;
  const message = (await listMessages(c, req.ticketId)).find((m) => m.id === id);
  return { ticket, message };
}

/** The columns a change sets and the events it emits, decided from the current row. */
function plan(t: TicketRecord, change: Exclude<LifecycleChange, { kind: 'delete' }>, at: string) {
  const sets: Sets = { updated_at: at };
  const events: EventType[] = [];
  let audit: { note?: string } | null = {};
  const moveTo = (status: TicketRecord['status']) => {
    if (status === t.status) return;
    sets.status = status;
    if (status === 'resolved') sets.resolved_at = at;
    if (status === 'open' || status === 'in_progress') sets.resolved_at = null; // re-opened
    if (status === 'closed') sets.closed_at = at;
    if (status === 'resolved') events.push('ticket.resolved');
    if (status === 'closed') events.push('ticket.closed');
  };
  switch (change.kind) {
    case 'patch': {
      if (change.priority !== undefined) Object.assign(sets, { priority: change.priority, priority_rank: PRIORITY_RANK[change.priority] });
      if (change.category !== undefined) sets.category = change.category;
      if (change.tags !== undefined) sets.tags = change.tags;
      if (change.internalNote !== undefined) sets.internal_note = change.internalNote;
      if (change.assigneeId !== undefined) {
        sets.assignee_id = change.assigneeId;
        if (change.assigneeId && change.assigneeId !== t.assigneeId) events.push('ticket.assigned');
      }
      if (change.status !== undefined) moveTo(change.status);
      audit = { note: change.internalNote };
      break;
    }
    case 'assign':
      sets.assignee_id = change.agentId;
      if (change.note !== undefined) sets.internal_note = change.note;
      events.push('ticket.assigned');
      moveTo(statusAfterAssign(t.status));
      audit = { note: change.note };
      break;
    case 'resolve':
      if (change.resolutionNote !== undefined) sets.resolution_note = change.resolutionNote;
      moveTo('resolved');
      break;
    case 'message':
      sets.message_count = t.messageCount + 1;
      if (change.authorType === 'agent' && !t.firstResponseAt) sets.first_response_at = at;
      events.push('message.created');
      moveTo(statusAfterMessage(t.status, change.authorType, t.assigneeId));
      audit = null;
      break;
    case 'auto_close':
      moveTo('closed');
      break;
    case 'sla_breach':
      delete sets.updated_at; // a breach is recorded, the ticket itself does not change
      events.push('sla.breached');
      audit = { note: `SLA ${change.policy} deadline breached` };
      break;
  }
  return { sets, events, audit };
}

// One step of a platform ticket, applied by its workflow's activity (the workflow is the
// ticket's only writer after the create). Steps are numbered by the workflow; the row's
// `version` says which step was applied last, and the step log which change made it
// (step-log.ts; docs/platform.md, "Step keys"): a retried step is answered as stored, a
// number another change took is answered `taken`, and neither is applied twice. A ticket
// that has vanished (its workspace purged) answers `{ gone: true }`: its workflow ends quietly.
import type { Db } from '../../db/db';
import { recordEvent, type EventType } from '../../db/repositories/events';
import { markPlatformFirstResponse } from '../../db/repositories/platform-ticket-sla';
import { lockPlatformTicket, logPlatformTicketStep, publishPlatformReply, updatePlatformTicket, type PlatformTicketSets } from '../../db/repositories/platform-tickets';
import { automationFiredKey, planAutomationStep } from './automation-step';
import { platformConflict, platformNotFound } from './errors';
import { stepLogAnswer } from './step-log';
import { followUpsOf } from './step-follow-ups';
import { platformTicketData } from './ticket-events';
import { factsOf, type PlatformTicketStep, type PlatformTicketStepResult } from './ticket-step';
import type { PlatformTicketRecord } from './types';
import { daysAfter, TICKET_RECOVERY_DAYS } from './windows.rules';

export async function applyPlatformTicketChange(db: Db, step: PlatformTicketStep): Promise<PlatformTicketStepResult> {
  return db.transaction(async (m) => {
    const t = await lockPlatformTicket(m, step.ticketId);
    if (!t) return { gone: true as const };
    const seen = await stepLogAnswer(m, t, step);
    if ('answer' in seen) return seen.answer;
    step = seen.apply;
    if (t.version !== step.version - 1) {
      throw platformConflict(`Ticket '${t.id}' is at step ${t.version}; step ${step.version} cannot be applied`, { version: t.version });
    }
    const c = step.change;
    // an automation's step is its rule's applicable actions as a patch; a rule that does not fire stores no step
    const automation = c.kind === 'automation' ? await planAutomationStep(m, t, c) : null;
    if (c.kind === 'automation' && !automation) return factsOf(t);
    const { sets, events } = plan(t, automation ? { ...step, change: automation.patch } : step);
    if (c.kind === 'reply' && !(await publishPlatformReply(m, t.id, c.replyId, step.version, step.at))) {
      throw platformNotFound('reply', c.replyId);
    }
    // the first published reply meets the first-response SLA (docs/platform.md, "SLA breaches")
    if (c.kind === 'reply') await markPlatformFirstResponse(m, t.id, step.at);
    const after = await updatePlatformTicket(m, t.id, sets);
    if (step.key !== undefined) await logPlatformTicketStep(m, t.id, step.version, step.key);
    const data = eventData(after, step);
    for (const type of events) {
      await recordEvent(m, {
        workspaceId: after.workspaceId,
        type,
        subjectId: after.id,
        data,
        at: step.at,
        dedupeKey: `platform-ticket:${after.id}:${step.version}:${type}`,
        api: 'platform',
        environment: after.environment,
      });
    }
    if (automation) {
      const type = 'automation.fired';
      const dedupeKey = automationFiredKey(after.id, step.version, automation.fired.automation_id);
      await recordEvent(m, { workspaceId: after.workspaceId, type, subjectId: after.id, data: automation.fired, at: step.at, dedupeKey, api: 'platform', environment: after.environment });
    }
    const followUps = await followUpsOf(m, step);
    return followUps ? { ...factsOf(after), followUps } : factsOf(after);
  });
}

/** The events' `data`: the ticket as the API shows it, plus the reply's id of a reply, and the soft delete's times of a delete or restore. */
function eventData(after: PlatformTicketRecord, step: PlatformTicketStep) {
  const c = step.change;
  if (c.kind === 'reply') return { ...platformTicketData(after), reply_id: c.replyId };
  if (c.kind === 'automation') return { ...platformTicketData(after), automation_id: c.automationId };
  if (c.kind === 'delete' || c.kind === 'restore') {
    const iso = (at: Date | null) => (at ? new Date(at).toISOString() : null);
    return { ...platformTicketData(after), deleted_at: iso(after.deletedAt), purge_at: iso(after.purgeAt) };
  }
  return platformTicketData(after);
}

/** The columns a step sets and the events it records, from the row before it. */
function plan(t: PlatformTicketRecord, step: PlatformTicketStep): { sets: PlatformTicketSets; events: EventType[] } {
  const sets: PlatformTicketSets = { version: step.version, updated_at: step.at };
  const events: EventType[] = ['ticket.updated'];
  const c = step.change;
  switch (c.kind) {
    case 'patch':
      if (c.priority !== undefined) sets.priority = c.priority;
      if (c.tags !== undefined) sets.tags = c.tags;
      if (c.assigneeId !== undefined) sets.assignee_id = c.assigneeId;
      if (c.status !== undefined && c.status !== t.status) {
        sets.status = c.status;
        if (c.status === 'resolved') {
          sets.resolved_at = step.at;
          events.push('ticket.resolved');
        } else if (c.status === 'closed') {
          sets.closed_at = step.at;
          events.push('ticket.closed');
        } else {
          sets.resolved_at = null; // open or pending again: no longer resolved
        }
      }
      break;
    case 'reply':
      break;
    case 'delete':
      sets.deleted_at = step.at;
      sets.purge_at = daysAfter(new Date(step.at), TICKET_RECOVERY_DAYS).toISOString();
      break;
    case 'restore':
      sets.deleted_at = null;
      sets.purge_at = null;
      break;
    case 'unassign':
      sets.assignee_id = null;
      break;
    case 'automation':
      break; // planned as the patch its actions make (above)
  }
  return { sets, events };
}

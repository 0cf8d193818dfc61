// Records the platform ticket histories that replay.test.ts replays:
// - histories/platform-ticket-lifecycle.json: a ticket taken to pending with an assignee, a
//   reply, a deactivated user's unassignment (and its repeat, unchanged), resolved,
//   reopened, soft-deleted, restored a day later, deleted again and purged by the 30-day
//   timer;
// - histories/platform-ticket-closed-delete.json: the run a closed ticket's DELETE starts
//   (update-with-start with the row's facts), through its 30-day purge;
// - histories/platform-ticket-automations.json (`… automations` records only this one): a
//   `ticket.created` rule firing at the start, a `ticket.updated` rule it sets off, a rule
//   whose step does not fire, the same after a PATCH and a reply, then closed;
// - histories/platform-ticket-updates-together.json (`… together` records only this one):
//   a resolve and a close that reach the run in its first workflow task together (the
//   worker starts after both were sent), stored as steps 2 and 3 one after the other under
//   the change lock (workflows/mutex.ts);
// - histories/platform-ticket-follow-ups.json (`… follow-ups` records only this one): the
//   automations' ticket, its PATCH (with a priority) and its reply each stored with what
//   follows them (domain/platform/step-follow-ups.ts): no local activity of their own for
//   round 1's rules or the new deadlines.
// On the time-skipping server with in-memory activities (the history holds what they
// answered; the real ones run in platform-ticket-workflow.test.ts). Run after a deliberate
// change of workflows/platform-ticket that the recorded histories cannot replay (read
// docs/workflows.md first; keep the old files while runs of the old code may exist):
//   npx tsx test/workflows/record-platform-ticket-history.ts [automations | together | follow-ups]
// (The SLA breaches' history, platform-ticket-sla.json: record-platform-ticket-sla-history.ts.)
// (A lost workflow task's steps met under their step keys, platform-ticket-lost-task.json:
// record-platform-ticket-lost-task-history.ts.)
import { WithStartWorkflowOperation } from '@temporalio/client';
import {
  deleteTicketUpdate,
  patchTicketUpdate,
  PLATFORM_QUEUE,
  PLATFORM_TICKET_WORKFLOW_TYPE,
  platformTicketWorkflowId,
  replyTicketUpdate,
  restoreTicketUpdate,
  unassignUserUpdate,
  type PlatformTicketActivities,
  type PlatformTicketFacts,
} from '../../workflows/platform-ticket/contract';
import { daysAfter, TICKET_RECOVERY_DAYS } from '../../domain/platform/windows.rules';
import { FAR_SLA_DEADLINES, NO_RISK } from './platform-ticket-quiet-activities';
import { recordPlatformHistories, type PlatformRecorder } from './platform-recorder';
import { writeHistory } from './push-recorder';

/**
 * One in-memory row per ticket: what the real activity would answer. With `followUps`, a
 * patch's or reply's step also answers what follows it, as the real one does since
 * domain/platform/step-follow-ups.ts (the rules of round 1, a new priority's deadlines).
 */
function fakeActivities(opts: { followUps?: boolean } = {}): PlatformTicketActivities {
  const rows = new Map<string, PlatformTicketFacts>();
  const activities: PlatformTicketActivities = {
    async applyPlatformTicketStep(step) {
      const r = rows.get(step.ticketId) ?? { version: step.version - 1, status: 'open', assigneeId: 'usr_01recordedagent00000000', purgeAt: null };
      if (r.version >= step.version) return r;
      const c = step.change;
      const next = { ...r, version: step.version };
      if (c.kind === 'patch') {
        if (c.status) next.status = c.status;
        if (c.assigneeId !== undefined) next.assigneeId = c.assigneeId;
      }
      if (c.kind === 'unassign') next.assigneeId = null;
      if (c.kind === 'automation' && c.automationId === NEVER_FIRES) return r; // its actions would change nothing: no step
      if (c.kind === 'delete') next.purgeAt = daysAfter(new Date(step.at), TICKET_RECOVERY_DAYS).toISOString();
      if (c.kind === 'restore') next.purgeAt = null;
      rows.set(step.ticketId, next);
      if (!opts.followUps || (c.kind !== 'patch' && c.kind !== 'reply')) return next;
      const automations = await activities.matchPlatformAutomations({ ticketId: step.ticketId, trigger: 'ticket.updated', exclude: [] });
      const sla = c.kind === 'patch' && c.priority !== undefined ? { sla: { ...(await FAR_SLA_DEADLINES.readPlatformTicketSla(step.ticketId)), priority: c.priority } } : {};
      return { ...next, followUps: { automations, ...sla } };
    },
    async purgePlatformTicket(ticketId) {
      rows.delete(ticketId);
      return 'purged';
    },
    // rule A on ticket.created; rules B and the never-firing C on ticket.updated
    async matchPlatformAutomations({ trigger, exclude }) {
      const ids = trigger === 'ticket.created' ? [RULE_A] : [RULE_B, NEVER_FIRES];
      return ids.filter((id) => !exclude.includes(id));
    },
    ...FAR_SLA_DEADLINES, // the breaches: record-platform-ticket-sla-history.ts
  };
  return activities;
}

const RULE_A = 'aut_01recordedcreatedrulea00';
const RULE_B = 'aut_01recordedupdatedruleb00';
const NEVER_FIRES = 'aut_01recordedneverfiresc00';

/** A ticket whose automations fire on its create, a PATCH and a reply, until it is closed. */
async function recordAutomations(env: PlatformRecorder['env'], taskQueue: string, name = 'platform-ticket-automations', firstPatch: object = { status: 'pending' }) {
  const ticketId = 'tkt_01recordedautomationsrec';
  const handle = await env.client.workflow.start(PLATFORM_TICKET_WORKFLOW_TYPE, {
    taskQueue,
    workflowId: platformTicketWorkflowId(ticketId),
    args: [{ ticketId, workspaceId: 'ws_01recordedrecordedrecorde', assigneeId: null }],
  });
  await handle.executeUpdate(patchTicketUpdate, { args: [firstPatch] });
  await handle.executeUpdate(replyTicketUpdate, { args: [{ replyId: 'rpl_01recordedautomationsre' }] });
  await handle.executeUpdate(patchTicketUpdate, { args: [{ status: 'closed' }] });
  console.log('automations', await handle.result());
  writeHistory(name, await handle.fetchHistory());
}

/** Two changes sent before any worker polls: the first workflow task holds both. */
async function recordTogether({ env, taskQueue, withWorker }: PlatformRecorder) {
  const ticketId = 'tkt_01recordedtogetherrecord';
  const handle = await env.client.workflow.start(PLATFORM_TICKET_WORKFLOW_TYPE, {
    taskQueue,
    workflowId: platformTicketWorkflowId(ticketId),
    args: [{ ticketId, workspaceId: 'ws_01recordedrecordedrecorde', assigneeId: null }],
  });
  const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
  // the server admits Updates in the order they arrive: the resolve first (sent at once, the
  // close could overtake it and be stored first, leaving the resolve refused), then the close
  const resolve = handle.executeUpdate(patchTicketUpdate, { args: [{ status: 'resolved' }] });
  await pause(300);
  const close = handle.executeUpdate(patchTicketUpdate, { args: [{ status: 'closed' }] });
  await pause(1000); // both admitted while no worker polls
  // no rules here: the two changes are the only steps
  const activities = { ...fakeActivities(), ...NO_RISK, matchPlatformAutomations: async () => [] };
  const versions = await withWorker(activities, async () => {
    const answers = await Promise.all([resolve, close]);
    await handle.result();
    return answers.map((a) => a.version).sort((a, b) => a - b);
  });
  if (versions.join() !== '2,3') throw new Error(`the two changes were stored as steps ${versions.join(' and ')}, not 2 and 3`);
  console.log('together', versions);
  writeHistory('platform-ticket-updates-together', await handle.fetchHistory());
}

const together = process.argv[2] === 'together';

recordPlatformHistories(async (recorder) => {
  const { env, taskQueue, withWorker } = recorder;
  if (together) return recordTogether(recorder);
  if (process.argv[2] === 'follow-ups') {
    return withWorker({ ...fakeActivities({ followUps: true }), ...NO_RISK }, () => recordAutomations(env, taskQueue, 'platform-ticket-follow-ups', { status: 'pending', priority: 'high' }));
  }
  await withWorker({ ...fakeActivities(), ...NO_RISK }, async () => {
    await recordAutomations(env, taskQueue);
    if (process.argv[2] === 'automations') return;
    const agent = 'usr_01recordedagent00000000';
    const ticketId = 'tkt_01recordedrecordedrecord';
    const workspaceId = 'ws_01recordedrecordedrecorde';
    const handle = await env.client.workflow.start(PLATFORM_TICKET_WORKFLOW_TYPE, {
      taskQueue,
      workflowId: platformTicketWorkflowId(ticketId),
      args: [{ ticketId, workspaceId, assigneeId: null }],
    });
    await handle.executeUpdate(patchTicketUpdate, { args: [{ status: 'pending', assigneeId: agent, priority: 'high', tags: ['vip'] }] });
    await handle.executeUpdate(replyTicketUpdate, { args: [{ replyId: 'rpl_01recordedrecordedrecord' }] });
    await handle.executeUpdate(unassignUserUpdate, { args: [{ userId: agent }] });
    await handle.executeUpdate(unassignUserUpdate, { args: [{ userId: agent }] });
    await handle.executeUpdate(patchTicketUpdate, { args: [{ status: 'resolved' }] });
    await handle.executeUpdate(patchTicketUpdate, { args: [{ status: 'open' }] });
    await handle.executeUpdate(deleteTicketUpdate);
    await env.sleep('1 day');
    await handle.executeUpdate(restoreTicketUpdate);
    await env.sleep('1 hour');
    await handle.executeUpdate(deleteTicketUpdate);
    console.log('lifecycle', await handle.result());
    writeHistory('platform-ticket-lifecycle', await handle.fetchHistory());

    // a closed ticket's deletion: the run DELETE starts with the stored row's facts
    const closedId = 'tkt_01recordedclosedrecorde';
    const startWorkflowOperation = new WithStartWorkflowOperation(PLATFORM_TICKET_WORKFLOW_TYPE, {
      workflowId: platformTicketWorkflowId(closedId),
      taskQueue,
      args: [{ ticketId: closedId, workspaceId, assigneeId: null }, { status: 'closed', version: 3, assigneeId: null, purgeAt: null }],
      workflowIdConflictPolicy: 'USE_EXISTING',
    });
    await env.client.workflow.executeUpdateWithStart(deleteTicketUpdate, { startWorkflowOperation });
    const closed = await startWorkflowOperation.workflowHandle();
    console.log('closed-delete', await closed.result());
    writeHistory('platform-ticket-closed-delete', await closed.fetchHistory());
  });
}, together ? `record-${PLATFORM_QUEUE}-together` : undefined);

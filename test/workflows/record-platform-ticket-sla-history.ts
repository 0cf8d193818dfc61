// Records histories/platform-ticket-sla.json, which replay.test.ts replays: a critical
// ticket whose first response breaches at 1 h (the patch marker, the deadlines' read, the
// timer, the breach), then a reply, a priority change to high (the deadlines read again,
// resolution now at 24 h), the resolution breach at 24 h, and the close that ends the run.
// On the time-skipping server with in-memory activities (the real ones run in
// platform-ticket-sla.test.ts). Run after a deliberate change of the SLA timers that this
// history cannot replay (docs/workflows.md first; keep the old file while runs of the old
// code may exist):
//   npx tsx test/workflows/record-platform-ticket-sla-history.ts
import { slaDueTimes, type PlatformSlaPolicyName } from '../../domain/platform/sla.rules';
import type { PlatformTicketPriority } from '../../domain/platform/types';
import {
  patchTicketUpdate,
  PLATFORM_TICKET_WORKFLOW_TYPE,
  platformTicketWorkflowId,
  replyTicketUpdate,
  type PlatformTicketActivities,
  type PlatformTicketFacts,
} from '../../workflows/platform-ticket/contract';
import { NO_AUTOMATIONS, NO_RISK } from './platform-ticket-quiet-activities';
import { recordPlatformHistories } from './platform-recorder';
import { writeHistory } from './push-recorder';

interface FakeRow extends PlatformTicketFacts {
  createdAt: number;
  priority: PlatformTicketPriority;
  firstResponded: boolean;
  breached: Record<PlatformSlaPolicyName, boolean>;
}

/** One in-memory row: what the real activities would answer for it. */
function fakeActivities(row: FakeRow): PlatformTicketActivities {
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    ...NO_AUTOMATIONS, // record-platform-ticket-history.ts has them
    async applyPlatformTicketStep(step) {
      if (row.version >= step.version) return row;
      row.version = step.version;
      const c = step.change;
      if (c.kind === 'patch' && c.status) row.status = c.status;
      if (c.kind === 'patch' && c.priority) row.priority = c.priority;
      if (c.kind === 'reply') row.firstResponded = true;
      return { version: row.version, status: row.status, assigneeId: row.assigneeId, purgeAt: row.purgeAt };
    },
    async purgePlatformTicket() {
      return 'purged';
    },
    async readPlatformTicketSla() {
      const due = slaDueTimes(row.createdAt, row.priority, null);
      return { priority: row.priority, dueAt: { first_response: iso(due.first_response), resolution: iso(due.resolution) }, firstResponded: row.firstResponded, breached: { ...row.breached } };
    },
    async breachPlatformTicketSla(req) {
      if (row.breached[req.policy]) return { breached: false };
      row.breached[req.policy] = true;
      return { breached: true };
    },
  };
}

recordPlatformHistories(async ({ env, taskQueue, withWorker }) => {
  const ticketId = 'tkt_01recordedslarecordedrec';
  const row: FakeRow = {
    version: 1, status: 'open', assigneeId: null, purgeAt: null,
    createdAt: await env.currentTimeMs(), priority: 'critical', firstResponded: false, breached: { first_response: false, resolution: false },
  };
  await withWorker({ ...fakeActivities(row), ...NO_RISK }, async () => {
    const handle = await env.client.workflow.start(PLATFORM_TICKET_WORKFLOW_TYPE, {
      taskQueue,
      workflowId: platformTicketWorkflowId(ticketId),
      args: [{ ticketId, workspaceId: 'ws_01recordedrecordedrecorde', assigneeId: null }],
    });
    await env.sleep('61 minutes'); // critical: the first response breaches at 1 h
    await handle.executeUpdate(replyTicketUpdate, { args: [{ replyId: 'rpl_01recordedslarecordedrec' }] });
    await handle.executeUpdate(patchTicketUpdate, { args: [{ priority: 'high' }] }); // resolution: 8 h → 24 h
    await env.sleep('9 hours');
    await env.sleep('15 hours'); // high: the resolution breaches at 24 h
    await handle.executeUpdate(patchTicketUpdate, { args: [{ status: 'closed' }] });
    console.log('sla', await handle.result(), row.breached);
    if (!row.breached.first_response || !row.breached.resolution) throw new Error('both policies should have breached');
    writeHistory('platform-ticket-sla', await handle.fetchHistory());
  });
});

// Records histories/platform-ticket-risk.json, which replay.test.ts replays: a platform ticket
// run under patched('platform-ticket-risk') (workflows/platform-ticket/risk.ts): the created
// ticket assessed at the start (a signal), a reply published and assessed (a signal), a second
// reply (none), closed; the run ends once the assessments have settled.
// On the time-skipping server with in-memory activities (the history holds what they answered;
// the real ones run in platform-ticket-risk.test.ts). Kept apart from
// record-platform-ticket-history.ts so that re-recording this one leaves the older histories
// (recorded before the patch, still replayed) as they are:
//   npx tsx test/workflows/record-platform-ticket-risk-history.ts          # platform-ticket-risk.json
//   npx tsx test/workflows/record-platform-ticket-risk-history.ts in-task  # platform-ticket-risk-in-task.json
// The second is the same run started with `riskInTask` (the API's input when no LLM endpoint
// is configured): its assessments are local activities, markers inside the workflow tasks.
//
// Beside it, histories/platform-ticket-risk-upgrade.json is the deploy of the patch in the
// middle of a run: started and patched (pending) by a worker of the code before it (the
// workflow of commit 08e9d1e, bundled from a temporary copy), then replayed by a worker of
// this code, which took a reply (assessed: the patch marker mid-history) and the close; the
// ticket itself was not assessed. It was recorded once that way and is not re-recorded by
// this script (it would need the old code); replay.test.ts replays it.
import {
  patchTicketUpdate,
  PLATFORM_TICKET_WORKFLOW_TYPE,
  platformTicketWorkflowId,
  replyTicketUpdate,
  type PlatformRiskActivities,
  type PlatformTicketActivities,
  type PlatformTicketFacts,
} from '../../workflows/platform-ticket/contract';
import { FAR_SLA_DEADLINES, NO_AUTOMATIONS } from './platform-ticket-quiet-activities';
import { recordPlatformHistories } from './platform-recorder';
import { writeHistory } from './push-recorder';

function fakeActivities(): PlatformTicketActivities & PlatformRiskActivities {
  let row: PlatformTicketFacts = { version: 1, status: 'open', assigneeId: null, purgeAt: null };
  return {
    ...NO_AUTOMATIONS,
    ...FAR_SLA_DEADLINES,
    async applyPlatformTicketStep(step) {
      if (row.version >= step.version) return row;
      row = { ...row, version: step.version };
      if (step.change.kind === 'patch' && step.change.status) row.status = step.change.status;
      return row;
    },
    async purgePlatformTicket() {
      return 'purged';
    },
    async assessPlatformRisk({ ticketId, replyId }) {
      const signal = !replyId ? 'fraud' : replyId.endsWith('1') ? 'abuse' : null;
      return { ticketId, replyId: replyId ?? null, signal };
    },
  };
}

recordPlatformHistories(async ({ env, taskQueue, withWorker }) => {
  const inTask = process.argv[2] === 'in-task';
  await withWorker(fakeActivities(), async () => {
    const ticketId = 'tkt_01recordedriskrecordedrec';
    const handle = await env.client.workflow.start(PLATFORM_TICKET_WORKFLOW_TYPE, {
      taskQueue,
      workflowId: platformTicketWorkflowId(ticketId),
      args: [{ ticketId, workspaceId: 'ws_01recordedrecordedrecorde', assigneeId: null, ...(inTask ? { riskInTask: true } : {}) }],
    });
    await handle.executeUpdate(replyTicketUpdate, { args: [{ replyId: 'rpl_01recordedriskreply00001' }] });
    await handle.executeUpdate(replyTicketUpdate, { args: [{ replyId: 'rpl_01recordedriskreply00002' }] });
    await handle.executeUpdate(patchTicketUpdate, { args: [{ status: 'closed' }] });
    console.log('risk', inTask ? 'in-task' : '', await handle.result());
    writeHistory(inTask ? 'platform-ticket-risk-in-task' : 'platform-ticket-risk', await handle.fetchHistory());
  });
});

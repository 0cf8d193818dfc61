// Records histories/platform-ticket-lost-task-sla-read.json, which replay.test.ts replays: a run
// that meets the steps of a lost workflow task (docs/platform.md, "Step keys"), so the
// `taken` answers and what the workflow does with them stay under the determinism guard
// (the histories recorded before step keys hold none):
// - the lost task's A (`upd-a`, to pending) is stored as step 2 behind the run's back;
//   Update B (`upd-b`, a tag) meets it `taken` and is stored as step 3; Update A sent again
//   is answered as stored;
// - the lost task's C (`upd-c`, a soft delete) is stored as step 4; Update D (`upd-d`, a
//   tag) meets it `taken` and is refused (404: deleted); Update C sent again is refused by
//   the run's state but answered as stored from the step log;
// - the 30-day timer purges the ticket and the run ends.
// On the time-skipping server with in-memory activities that keep the step log's rules
// (domain/platform/step-log.ts; the real ones: platform-ticket-step-keys.test.ts).
// After each `taken` answer the run reads its SLA deadlines again at its next wait
// (workflows/platform-ticket/sla-timers.ts, patched('platform-ticket-sla-after-taken')).
// histories/platform-ticket-lost-task.json is the same run recorded before that re-read
// (no marker): kept as it is, not re-recorded, so the guard stays tested.
//   npx tsx test/workflows/record-platform-ticket-lost-task-history.ts
import { daysAfter, TICKET_RECOVERY_DAYS } from '../../domain/platform/windows.rules';
import {
  deleteTicketUpdate,
  patchTicketUpdate,
  PLATFORM_QUEUE,
  PLATFORM_TICKET_WORKFLOW_TYPE,
  platformTicketStateQuery,
  platformTicketWorkflowId,
  type PlatformTicketActivities,
  type PlatformTicketFacts,
} from '../../workflows/platform-ticket/contract';
import { FAR_SLA_DEADLINES, NO_AUTOMATIONS, NO_RISK } from './platform-ticket-quiet-activities';
import { recordPlatformHistories } from './platform-recorder';
import { writeHistory } from './push-recorder';

/** One ticket's row and step log, in memory: what the real activity would answer. */
function keyedFake() {
  let row: PlatformTicketFacts | null = { version: 1, status: 'open', assigneeId: null, purgeAt: null };
  const log = new Set<string>();
  const activities: PlatformTicketActivities = {
    async applyPlatformTicketStep(step) {
      if (!row) return { gone: true };
      if (step.key && log.has(step.key)) return row;
      // every step after the create is keyed here: a stored number is always another change's
      if (step.key && (step.onlyIfStored || row.version >= step.version)) return { ...row, taken: true };
      if (row.version >= step.version) return row;
      const c = step.change;
      row = { ...row, version: step.version };
      if (c.kind === 'patch' && c.status) row.status = c.status;
      if (c.kind === 'delete') row.purgeAt = daysAfter(new Date(step.at), TICKET_RECOVERY_DAYS).toISOString();
      if (c.kind === 'restore') row.purgeAt = null;
      if (step.key) log.add(step.key);
      return row;
    },
    async purgePlatformTicket() {
      row = null;
      return 'purged';
    },
    ...NO_AUTOMATIONS,
    ...FAR_SLA_DEADLINES,
  };
  /** A step the lost task committed: stored under its key, never in the history. */
  const lost = (key: string, change: (r: PlatformTicketFacts) => PlatformTicketFacts) => {
    row = change({ ...row!, version: row!.version + 1 });
    log.add(key);
  };
  return { activities, lost };
}

const refused = (p: Promise<unknown>) => p.then(() => { throw new Error('expected a refusal'); }, (err) => String(err.cause?.type));

recordPlatformHistories(async ({ env, taskQueue, withWorker }) => {
  const fake = keyedFake();
  await withWorker({ ...fake.activities, ...NO_RISK }, async () => {
    const ticketId = 'tkt_01recordedlosttaskrecord';
    const handle = await env.client.workflow.start(PLATFORM_TICKET_WORKFLOW_TYPE, {
      taskQueue,
      workflowId: platformTicketWorkflowId(ticketId),
      args: [{ ticketId, workspaceId: 'ws_01recordedrecordedrecorde', assigneeId: null }],
    });
    await handle.query(platformTicketStateQuery); // past its first task

    fake.lost('update:upd-a', (r) => ({ ...r, status: 'pending' }));
    const b = await handle.executeUpdate(patchTicketUpdate, { args: [{ tags: ['b'] }], updateId: 'upd-b' });
    const a = await handle.executeUpdate(patchTicketUpdate, { args: [{ status: 'pending' }], updateId: 'upd-a' });
    if (b.version !== 3 || a.version !== 3) throw new Error(`B stored as ${b.version}, A answered as ${a.version}: not 3 and 3`);

    fake.lost('update:upd-c', (r) => ({ ...r, purgeAt: daysAfter(new Date(), TICKET_RECOVERY_DAYS).toISOString() }));
    const d = await refused(handle.executeUpdate(patchTicketUpdate, { args: [{ tags: ['d'] }], updateId: 'upd-d' }));
    const c = await handle.executeUpdate(deleteTicketUpdate, { updateId: 'upd-c' });
    if (d !== 'not_found' || c.version !== 4) throw new Error(`D: ${d}, C answered as ${c.version}: not not_found and 4`);
    console.log('lost-task', { b: b.version, a: a.version, d, c: c.version }, await handle.result());
    writeHistory('platform-ticket-lost-task-sla-read', await handle.fetchHistory());
  });
}, `record-${PLATFORM_QUEUE}-lost-task`);

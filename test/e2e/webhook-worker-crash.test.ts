// Fault tests: `kill -9` the webhooks worker while deliveries are in flight, start it again,
// and every event still reaches its receivers, which answer 200; the only repeats are
// attempts whose outcome was never recorded, and each carries the same id and bytes.
//
// Each test runs on a task queue of its own with its own worker process, and writes its
// delivery rows and starts its workflows itself, bypassing the outbox dispatcher (why:
// test/support/crash-harness.ts).
import assert from 'node:assert/strict';
import { createTenant } from '../support/factories';
import { setTimeout as sleep } from 'node:timers/promises';
import { assertGenuine, assertSucceededFirstTime, useCrashHarness } from '../support/crash-harness';
import { eventually } from '../support/eventually';
import { insertTicketCreatedDeliveries } from '../support/webhook-factories';

const harness = useCrashHarness();

test('kill -9 of the webhooks worker mid-delivery: every event arrives, a repeat carries the same id', async () => {
  const EVENTS = 40;
  /** the receiver answers each request after 300-900 ms, so many attempts are in flight */
  const delayMs = () => 300 + Math.random() * 600;
  /** workflows start this far apart, so at the kill some are done, some in flight, some not begun */
  const START_EVERY_MS = 60;
  /** kill once this many deliveries have been answered */
  const KILL_AFTER_ANSWERED = 8;
  /** after a worker dies its started workflow tasks time out (10 s) before another worker gets them */
  const RECOVERY_TIMEOUT_MS = 90_000;

  const run = harness.run('mid');
  const { workspace } = await createTenant(harness.db);
  const { endpointId, receiver } = await run.receiverEndpoint(workspace.id, delayMs);
  const events = await insertTicketCreatedDeliveries(harness.db, { workspaceId: workspace.id, endpointIds: [endpointId], count: EVENTS });
  const deliveryIds = events.map((e) => e.deliveries[0].deliveryId);
  const bodyOf = new Map(events.map((e) => [e.deliveries[0].deliveryId, e.deliveries[0].body]));

  const first = await run.startWorker();
  // Staggered starts, running on while we kill: the server keeps the later ones queued.
  const starting = run.startWorkflows(events, START_EVERY_MS);

  // some answered, some in flight: kill -9
  await eventually(() => receiver.answered() >= KILL_AFTER_ANSWERED && receiver.inFlight.size > 0, {
    timeoutMs: 30_000,
    everyMs: 5,
    what: () => `no deliveries in flight within 30 s:\n${first.output()}`,
  });
  const killedAt = Date.now();
  const inFlightAtKill = new Set([...receiver.inFlight].map((r) => r.id));
  const answeredAtKill = receiver.answered();
  await run.kill9(first);
  await starting;

  // A workflow still open has not reported its attempt, whatever the receiver did.
  const open = await run.openWorkflows();
  const openAtKill = new Set(deliveryIds.filter((_, i) => open[i]));
  // everything received up to now came from the dead worker (some bytes may land after the signal)
  await sleep(500);
  const fromFirst = new Set(receiver.requests.map((r) => r.id));

  const second = await run.startWorker();
  const restartedAt = Date.now();

  // every event delivered, every workflow done, bounded
  const results = await run.results(second, RECOVERY_TIMEOUT_MS, () => {
    const got = receiver.byId();
    return `${deliveryIds.filter((id) => !got.has(id)).length} never arrived`;
  });
  const recoveredAt = Date.now();
  assert.deepEqual(results, events.map(() => ({ succeeded: 1, failed: 0, skipped: 0 })));

  assertGenuine(receiver, bodyOf);
  const byId = receiver.byId();
  // every event reached the receiver, and it answered 200 to the worker that reported it
  assert.deepEqual([...byId.keys()].sort(), [...deliveryIds].sort());
  for (const [id, rs] of byId) assert.ok(rs.at(-1)!.answeredAt, `${id}: its last request was answered 200`);

  // Repeats: at most one per delivery (one kill), each an attempt the dead worker had sent
  // but never reported (its workflow was still open at the kill); every attempt still
  // unanswered at the kill is among them. Repeated bytes are identical (checked above).
  const repeated = new Set([...byId].filter(([, rs]) => rs.length > 1).map(([id]) => id));
  for (const [id, rs] of byId) assert.ok(rs.length <= 2, `${id} arrived ${rs.length} times`);
  for (const id of repeated) assert.ok(fromFirst.has(id) && openAtKill.has(id), `${id} repeated but was not in flight at the kill`);
  for (const id of inFlightAtKill) assert.ok(repeated.has(id), `${id}, unanswered at the kill, is sent again`);
  const unreported = [...fromFirst].filter((id) => openAtKill.has(id)).length;
  assert.ok(repeated.size <= unreported);

  await assertSucceededFirstTime(harness.db, deliveryIds);

  console.log(
    `killed with ${answeredAtKill} answered, ${inFlightAtKill.size} unanswered at the receiver, ` +
      `${fromFirst.size} received from the first worker, ${openAtKill.size} workflows open (${unreported} of them already received); ` +
      `${repeated.size} repeated; all ${EVENTS} done ${recoveredAt - killedAt} ms after the kill (${recoveredAt - restartedAt} ms after the restart)`,
  );
}, 150_000);

// An event's deliveries run side by side as local activities in one workflow task, which
// stays open (unreported) until the slowest of them answers. A fast delivery that is
// answered and recorded while a slow sibling is still in flight is therefore not known to
// the server; when the worker dies, the next one re-runs it. It must find the recorded
// attempt and return its outcome, not POST again (activities/webhooks/deliver.ts).
test('kill -9 while a slow sibling delivery holds the workflow task open: a recorded attempt is not sent again', async () => {
  const EVENTS = 10;
  const FAST_MS = 50;
  /** well under the 8 s after which the SDK reports a workflow task that local activities keep open */
  const SLOW_MS = 6_000;
  const START_EVERY_MS = 60;
  const RECOVERY_TIMEOUT_MS = 60_000;

  const run = harness.run('sibling');
  const { workspace } = await createTenant(harness.db);
  const fast = await run.receiverEndpoint(workspace.id, () => FAST_MS);
  const slow = await run.receiverEndpoint(workspace.id, () => SLOW_MS);
  const events = await insertTicketCreatedDeliveries(harness.db, { workspaceId: workspace.id, endpointIds: [fast.endpointId, slow.endpointId], count: EVENTS });
  const fastIds = events.map((e) => e.deliveries[0].deliveryId);
  const slowIds = events.map((e) => e.deliveries[1].deliveryId);
  const bodyOf = new Map(events.flatMap((e) => e.deliveries.map((d) => [d.deliveryId, d.body] as const)));
  const recordedFast = async () =>
    (await harness.db.query('SELECT count(*)::int AS n FROM webhook_attempts WHERE delivery_id = ANY($1::text[])', [fastIds])).rows[0].n as number;

  const first = await run.startWorker();
  const starting = run.startWorkflows(events, START_EVERY_MS);

  // every fast delivery answered and recorded, every slow one in flight: kill -9
  await eventually(async () => fast.receiver.answered() === EVENTS && slow.receiver.inFlight.size === EVENTS && (await recordedFast()) === EVENTS, {
    timeoutMs: 30_000,
    everyMs: 20,
    what: () => `fast ${fast.receiver.answered()}/${EVENTS} answered, slow ${slow.receiver.inFlight.size}/${EVENTS} in flight within 30 s:\n${first.output()}`,
  });
  const killedAt = Date.now();
  await run.kill9(first);
  await starting;
  assert.equal(slow.receiver.answered(), 0, 'no slow delivery was answered before the kill');

  // The premise: the server knows nothing of the fast results. Every workflow is open and
  // its history holds no local activity marker: the one workflow task is still unreported.
  assert.deepEqual(await run.openWorkflows(), events.map(() => true));
  const markers = await Promise.all(run.handles.map(async (h) => (await h.fetchHistory()).events!.filter((e) => e.markerRecordedEventAttributes).length));
  assert.deepEqual(markers, events.map(() => 0), 'no attempt result reached the server before the kill');

  const second = await run.startWorker();
  const restartedAt = Date.now();
  const results = await run.results(second, RECOVERY_TIMEOUT_MS, () => `slow ${slow.receiver.byId().size}/${EVENTS} arrived`);
  const recoveredAt = Date.now();
  assert.deepEqual(results, events.map(() => ({ succeeded: 2, failed: 0, skipped: 0 })));

  assertGenuine(fast.receiver, bodyOf);
  assertGenuine(slow.receiver, bodyOf);
  // The fix: each fast delivery reached its receiver exactly once, kill or no kill.
  assert.deepEqual(fast.receiver.requests.map((r) => r.id).sort(), [...fastIds].sort(), 'each fast delivery was sent exactly once');
  // The slow ones, never recorded, may be sent again: at most once, same id, same bytes (checked above).
  const slowById = slow.receiver.byId();
  assert.deepEqual([...slowById.keys()].sort(), [...slowIds].sort());
  for (const [id, rs] of slowById) {
    assert.ok(rs.length <= 2, `${id} arrived ${rs.length} times`);
    assert.ok(rs.at(-1)!.answeredAt, `${id}: its last request was answered 200`);
  }
  const slowRepeated = [...slowById.values()].filter((rs) => rs.length > 1).length;

  await assertSucceededFirstTime(harness.db, [...fastIds, ...slowIds]);

  console.log(
    `killed ${killedAt - fast.receiver.requests[0].receivedAt} ms after the first fast request, with ${EVENTS}/${EVENTS} fast answered and recorded, ${EVENTS} slow in flight; ` +
      `fast received ${fast.receiver.requests.length}× for ${EVENTS}, slow ${slow.receiver.requests.length}× for ${EVENTS} (${slowRepeated} repeated); ` +
      `all done ${recoveredAt - killedAt} ms after the kill (${recoveredAt - restartedAt} ms after the restart)`,
  );
}, 120_000);

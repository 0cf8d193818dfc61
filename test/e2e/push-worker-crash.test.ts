// kill -9 of the push worker in the middle of a send: after a restart every device got
// its push, none twice beyond the page that was in flight, and every repeat carries the
// same notificationId (docs/push.md).
//
// Isolation as in the webhook crash tests (test/support/crash-harness.ts): the send, its
// rows and its outbox entry are written the way POST /notifications/send writes them
// (domain/push/send.ts), with the API's workflow id but on a task queue of this test,
// whose entries a start dispatcher of this test starts and which only the worker process
// the test starts, kills and starts again polls. That worker pushes to a sink of this
// test (in this process), so the test sees each push the moment the sink accepts it.
import assert from 'node:assert/strict';
import { pushSendStart } from '../../api/push/notifications/gateway';
import { createSend } from '../../domain/push/send';
import { createLogger } from '../../lib/logger';
import { createWorkflowStartDispatcher } from '../../workers/workflow-start-dispatcher';
import { pushSendWorkflowId, type PushSendTotals } from '../../workflows/push-send/contract';
import { PUSH_PAGE_SIZE } from '../../workflows/push-send/push-send.logic';
import { eventually } from '../support/eventually';
import { insertDevices, pushTenant, statusCounts } from '../support/push-send';
import { byToken, sinkRecords } from '../support/push-sink';
import { startQueueWorker } from '../support/worker-process';
import { usePushCrashStack } from '../support/push-crash-stack';

const DEVICES = 3000; // six pages

const stack = usePushCrashStack('push-crash');

describe('push worker kill -9 mid-send', () => {
  it('every device gets its push; repeats only within the in-flight page, with the same notificationId', async () => {
    const { api, client, sink, sinkDir, workers } = stack;
    const tenant = await pushTenant(api);
    const devices = await insertDevices(api.deps.db, tenant.appId, DEVICES);
    const queue = `push-crash-${process.pid}-${Date.now().toString(36)}`;
    const { sendId, notificationIds } = await createSend(
      api.deps.db,
      { appId: tenant.appId, title: 'Crash', body: 'test', deepLink: null, customData: {}, deviceIds: devices.map((d) => d.id) },
      { workflowOf: (id) => ({ ...pushSendStart(id), taskQueue: queue }) },
    );
    assert.ok(sendId);
    const env = { FCM_ENDPOINT: sink.url, APNS_ENDPOINT: sink.url };
    const first = await startQueueWorker('push', queue, { env });
    workers.push(first);
    const dispatcher = createWorkflowStartDispatcher({ db: api.deps.db, client, logger: createLogger(), taskQueue: queue });
    await dispatcher.start();
    const handle = client.workflow.getHandle(pushSendWorkflowId(sendId));
    try {
      // kill once the second page is on its way (a page is one sendEach of 500)
      await eventually(() => sink.counts.fcm > PUSH_PAGE_SIZE + 50, { timeoutMs: 60_000, everyMs: 1, what: () => `sink has ${sink.counts.fcm}:\n${first.output()}` });
      first.kill9();
      assert.equal((await first.exited).signal, 'SIGKILL');
      const atKill = sink.counts.fcm;
      assert.ok(atKill < DEVICES, `the send was still under way at the kill (${atKill} pushed)`);
      assert.equal((await handle.describe()).status.name, 'RUNNING');

      const second = await startQueueWorker('push', queue, { env });
      workers.push(second);
      const totals = (await handle.result()) as PushSendTotals;
      assert.equal(totals.sent, DEVICES);
      assert.equal(totals.failed, 0);
      assert.deepEqual(await statusCounts(api.deps.db, sendId), { sent: DEVICES });

      const received = byToken(sinkRecords(sinkDir), devices.map((d) => d.token));
      const repeatedPositions: number[] = [];
      devices.forEach((d, position) => {
        const got = received.get(d.token)!;
        assert.ok(got.length >= 1, `${d.token} (position ${position}) was skipped`);
        for (const r of got) assert.equal(r.data.notificationId, notificationIds[position], 'every repeat carries the same notificationId');
        if (got.length > 1) repeatedPositions.push(position);
        assert.ok(got.length <= 2, `${d.token} received ${got.length} pushes`);
      });
      // a repeat happens only within the one page that was in flight at the kill
      const pages = new Set(repeatedPositions.map((p) => Math.floor(p / PUSH_PAGE_SIZE)));
      assert.ok(pages.size <= 1, `repeats in pages ${[...pages].join(', ')}`);
      console.log(`push kill -9: ${atKill} pushes before the kill, ${repeatedPositions.length} devices pushed twice (in-flight page), 0 skipped`);
    } finally {
      await dispatcher.stop();
      await handle.terminate('push crash test cleanup').catch(() => undefined);
    }
  }, 240_000);
});

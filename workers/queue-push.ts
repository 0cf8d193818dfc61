// Registry entry of the `push` task queue: the send workflow (one per direct or campaign
// send) and its page activity. A send's workflow starts from the workflow-start outbox
// (the send, its rows and its entry commit together). Event trigger firings go out in
// batch workflows that the firing dispatcher, running beside the worker, starts. This
// queue scales apart from the rest (docs/architecture.md): run more `npm run worker -- push`
// processes for more fan-out.
import { createCampaignActivities } from '../activities/push/campaign';
import { createPushSendActivities } from '../activities/push/send-page';
import { transportOpener } from '../activities/push/open-transport';
import { createTransportCache } from '../activities/push/transports';
import { createTriggerBatchActivities } from '../activities/push/trigger-batch';
import { PUSH_QUEUE } from '../workflows/push-send/contract';
import { createFiringDispatcher } from './firing-dispatcher';
import type { QueueEntry } from './queue-entry';

/**
 * Pages (up to 500 pushes each) one push worker process works on at once; further pages
 * wait in the task queue, where another push worker can take them. Unbounded (the
 * default 200 activities), a burst of sends can put 100,000 requests in flight in one
 * process; on a busy machine the last of them can wait past firebase-admin's 15 s request
 * timeout, and the library's own retry of a request the service may already have taken
 * is a repeated push without any fault (likely the 287 repeats of one bench:push round
 * that ran at a quarter of its usual speed). 8 × 500 requests in flight keep two cores
 * busy (docs/push.md, "Benchmark") and, at ~100 ms per request, allow ~40,000 pushes/s.
 */
export const PUSH_PAGES_IN_FLIGHT = 8;

export const pushQueue: QueueEntry = {
  name: PUSH_QUEUE,
  workflowsPath: require.resolve('../workflows/queues/push'),
  workflowTypes: ['pushSendWorkflow', 'campaignWorkflow', 'triggerBatchWorkflow'],
  options: { maxConcurrentActivityTaskExecutions: PUSH_PAGES_IN_FLIGHT },
  activities({ config, db }) {
    return {
      ...createPushSendActivities({ db, openTransport: transportOpener(config), transports: createTransportCache() }),
      // event trigger batches (workflows/trigger-batch): their own steps; the push is sendPushPage above
      ...createTriggerBatchActivities({ db }),
      // campaigns: the audience snapshot and the campaign's status; their pages are sendPushPage
      ...createCampaignActivities({ db }),
    };
  },
  startsFromOutbox: true,
  // the firing dispatcher runs beside the workers that push the batches it starts
  async sideJobs({ db, client, logger }) {
    const dispatcher = createFiringDispatcher({ db, client, logger });
    await dispatcher.start();
    return () => dispatcher.stop();
  },
};

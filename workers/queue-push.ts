// Registry entry of the `push` task queue: the send workflow (one per direct or campaign
// send) and its page activity, with the recovery of sends whose workflow never started
// running beside it. This queue scales apart from the rest (design.md): run more
// `npm run worker -- push` processes for more fan-out.
import { createPushSendActivities } from '../activities/push/send-page';
import { transportOpener } from '../activities/push/open-transport';
import { createTransportCache } from '../activities/push/transports';
import { PUSH_QUEUE } from '../workflows/push-send/contract';
import type { QueueEntry } from './queue-entry';
import { startSendRecovery } from './push-send-recovery';

export const pushQueue: QueueEntry = {
  name: PUSH_QUEUE,
  workflowsPath: require.resolve('../workflows/queues/push'),
  workflowTypes: ['pushSendWorkflow'],
  activities({ config, db }) {
    return createPushSendActivities({ db, openTransport: transportOpener(config), transports: createTransportCache() });
  },
  async sideJobs({ db, client, logger }) {
    return startSendRecovery({ db, client, logger });
  },
};

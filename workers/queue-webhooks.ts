// Registry entry of the `webhooks` task queue: webhook delivery batches and manual
// deliveries, with the outbox dispatcher that starts the batches running beside it.
import { createWebhookActivities } from '../activities/webhooks/deliver';
import { createPauseActivities } from '../activities/webhooks/pause';
import { createSafeHttpAgent, createSafeHttpsAgent } from '../lib/webhooks/safe-agent';
import { masterKey } from '../lib/crypto/master-key';
import { createEmailChain } from '../lib/email/chain';
import { logger } from '../lib/logger';
import { WEBHOOKS_QUEUE } from '../workflows/webhook-delivery/contract';
import type { QueueEntry } from './queue-entry';
import { createWebhookDispatcher } from './webhook-dispatcher';

export const webhooksQueue: QueueEntry = {
  name: WEBHOOKS_QUEUE,
  workflowsPath: require.resolve('../workflows/queues/webhooks'),
  workflowTypes: ['webhookBatchWorkflow', 'webhookDeliveryWorkflow'],
  activities({ config, db }) {
    const allowLoopback = config.webhookAllowLoopback;
    // keep-alive: consecutive deliveries to one receiver reuse the TLS connection
    const agents = {
      http: createSafeHttpAgent({ allowLoopback, keepAlive: true }),
      https: createSafeHttpsAgent({ allowLoopback, keepAlive: true }),
    };
    return {
      ...createWebhookActivities({ db, secretKey: masterKey(config), agents }),
      // the pause email goes through the email chain (Postmark, SMTP; none: paused without email)
      ...createPauseActivities({ db, mailer: createEmailChain({ config, logger }) }),
    };
  },
  // a batch's round runs as one local activity (up to 100 POSTs at once), mostly waiting on
  // receivers; batches started before that run one per delivery (docs/webhooks.md, "Workflow shape")
  options: { maxConcurrentLocalActivityExecutions: 400 },
  // the outbox dispatcher runs beside the workers that deliver what it starts
  async sideJobs({ db, client, logger }) {
    const dispatcher = createWebhookDispatcher({ db, client, logger });
    await dispatcher.start();
    return () => dispatcher.stop();
  },
};

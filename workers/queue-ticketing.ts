// Registry entry of the `ticketing` task queue: the ticket lifecycle and the scheduled
// retention purges (workflows/maintenance), which touch only our own storage. A ticket's
// workflow starts from the workflow-start outbox (the API stores the row and its entry).
import { createMaintenanceActivities } from '../activities/maintenance';
import { createTicketActivities } from '../activities/tickets';
import { createTriager } from '../activities/triage/triager';
import { createEmailChain } from '../lib/email/chain';
import { logger } from '../lib/logger';
import { TICKETING_QUEUE } from '../workflows/ticket/contract';
import type { QueueEntry } from './queue-entry';
import { ensureSchedules } from './schedules';

export const ticketingQueue: QueueEntry = {
  name: TICKETING_QUEUE,
  workflowsPath: require.resolve('../workflows/queues/ticketing'),
  workflowTypes: [
    'ticketWorkflow',
    'endedTicketWorkflow',
    'purgeRevokedKeysWorkflow',
    'purgeWebhookLogWorkflow',
    'purgeEventsWorkflow',
    'purgeIdempotencyKeysWorkflow',
  ],
  activities({ config, db }) {
    return {
      ...createTicketActivities({
        db,
        triager: createTriager({ openai: config.triageOpenAi }),
        // resolution notifications go through the email chain (Postmark, SMTP, a log line)
        mailer: createEmailChain({ config, logger }),
      }),
      ...createMaintenanceActivities({ db }),
    };
  },
  startsFromOutbox: true,
  // the schedules whose workflows this queue runs exist once its worker is up
  async sideJobs({ client }) {
    await ensureSchedules(client);
    return async () => undefined;
  },
};

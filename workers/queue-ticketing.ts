// Registry entry of the `ticketing` task queue: the ticket lifecycle and the scheduled
// retention purges (workflows/maintenance), which touch only our own storage. A ticket's
// workflow starts from the workflow-start outbox (the API stores the row and its entry).
import nodemailer from 'nodemailer';
import { createMaintenanceActivities } from '../activities/maintenance';
import { createTicketActivities } from '../activities/tickets';
import { createTriager } from '../activities/triage/triager';
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
    const transport = config.smtpUrl ? nodemailer.createTransport(config.smtpUrl) : null;
    return {
      ...createTicketActivities({
        db,
        triager: createTriager({ openai: config.triageOpenAi }),
        mailer: { transport, from: config.mailFrom },
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

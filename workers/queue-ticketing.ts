// Registry entry of the `ticketing` task queue: the ticket lifecycle and the scheduled
// retention purges (workflows/maintenance), which touch only our own storage.
import nodemailer from 'nodemailer';
import { createMaintenanceActivities } from '../activities/maintenance';
import { createTicketActivities } from '../activities/tickets';
import { createTriager } from '../activities/triage/triager';
import { TICKETING_QUEUE } from '../workflows/ticket/contract';
import type { QueueEntry } from './queue-entry';
import { ensureSchedules } from './schedules';
import { createTicketStartDispatcher } from './ticket-start-dispatcher';

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
  // the schedules whose workflows this queue runs exist once its worker is up; the start
  // dispatcher starts the workflows of tickets the API stored (the create outbox)
  async sideJobs({ db, client, logger }) {
    await ensureSchedules(client);
    const dispatcher = createTicketStartDispatcher({ db, client, logger });
    await dispatcher.start();
    return () => dispatcher.stop();
  },
};

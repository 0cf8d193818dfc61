import nodemailer from 'nodemailer';
import { createMaintenanceActivities } from '../activities/maintenance';
import { createTicketActivities } from '../activities/tickets';
import { createTriager } from '../activities/triage/triager';
import { createWebhookActivities } from '../activities/webhooks/deliver';
import { createPauseActivities } from '../activities/webhooks/pause';
import { createSafeHttpAgent, createSafeHttpsAgent } from '../lib/webhooks/safe-agent';
import { webhookSecretKey } from '../lib/webhooks/secret-box';
import type { Db } from '../db/db';
import type { Config } from '../lib/config';
import type { TaskQueue } from './queues';

/** The activities a worker of `queue` registers, built over real dependencies. */
export function activitiesFor(queue: TaskQueue, deps: { config: Config; db: Db }): object {
  const { config, db } = deps;
  const mailer = () => ({ transport: config.smtpUrl ? nodemailer.createTransport(config.smtpUrl) : null, from: config.mailFrom });
  switch (queue) {
    case 'ticketing': {
      return {
        ...createTicketActivities({
          db,
          triager: createTriager({ openai: config.triageOpenAi }),
          mailer: mailer(),
        }),
        ...createMaintenanceActivities({ db }),
      };
    }
    case 'webhooks': {
      const allowLoopback = config.webhookAllowLoopback;
      // keep-alive: consecutive deliveries to one receiver reuse the TLS connection
      const agents = {
        http: createSafeHttpAgent({ allowLoopback, keepAlive: true }),
        https: createSafeHttpsAgent({ allowLoopback, keepAlive: true }),
      };
      return {
        ...createWebhookActivities({ db, secretKey: webhookSecretKey(config), agents }),
        ...createPauseActivities({ db, mailer: mailer() }),
      };
    }
  }
}

// The ticket workflows' activity stubs, one per retry policy (ticket.workflow.ts,
// ended-ticket.workflow.ts and their steps call them).
import { proxyActivities, proxyLocalActivities } from '@temporalio/workflow';
import type { TicketActivities } from './activities.contract';

// Storing the ticket is a few milliseconds of Postgres: local activities run it inside
// the workflow task, without a round trip through the server per step, which is what
// makes creates and updates fast. Triage and email stay ordinary activities.
export const storage = proxyLocalActivities<TicketActivities>({
  startToCloseTimeout: '15 seconds',
  retry: { initialInterval: '200 ms', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});
// Creation gives up after ~6 s so a ticket that could not be stored ends its workflow.
export const creation = proxyLocalActivities<TicketActivities>({
  startToCloseTimeout: '5 seconds',
  retry: { initialInterval: '200 ms', backoffCoefficient: 2, maximumAttempts: 6 },
});
export const side = proxyActivities<TicketActivities>({
  startToCloseTimeout: '45 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumAttempts: 5 },
});
// Triage of tickets created through the outbox: retried for as long as an outage may last.
export const triage = proxyActivities<TicketActivities>({
  startToCloseTimeout: '45 seconds',
  scheduleToCloseTimeout: '6 hours',
  // at most 10 s between attempts: once PostgreSQL is back, triage follows within seconds
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '10 seconds' },
});

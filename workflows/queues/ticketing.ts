// The workflows of the `ticketing` task queue, and only them: its workers bundle this
// file (workers/queue-ticketing.ts), so a change to another queue's workflows never
// changes this queue's bundle.
export { ticketWorkflow } from '../ticket/ticket.workflow';
export * from '../maintenance';
export { endedTicketWorkflow } from '../ticket/ended-ticket.workflow';

// Every workflow the workers register (bundled by the Temporal worker).
export { ticketWorkflow } from './ticket/ticket.workflow';
export * from './maintenance';
export { webhookDeliveryWorkflow, webhookEventWorkflow } from './webhook-delivery/delivery.workflow';

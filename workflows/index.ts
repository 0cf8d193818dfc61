// Every workflow the workers register (bundled by the Temporal worker).
export { ticketWorkflow } from './ticket/ticket.workflow';
export * from './maintenance';
export { webhookBatchWorkflow, webhookDeliveryWorkflow } from './webhook-delivery/delivery.workflow';

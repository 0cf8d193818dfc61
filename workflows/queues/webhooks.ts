// The workflows of the `webhooks` task queue, and only them: its workers bundle this
// file (workers/queue-webhooks.ts).
export { webhookBatchWorkflow, webhookDeliveryWorkflow } from '../webhook-delivery/delivery.workflow';

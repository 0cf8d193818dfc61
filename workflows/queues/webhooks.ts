// The workflows of the `webhooks` task queue, and only them: its workers bundle this file
// (workers/queue-webhooks.ts).
export { webhookBatchWorkflow } from '../webhook-delivery/webhook-batch.workflow';
export { webhookDeliveryWorkflow } from '../webhook-delivery/webhook-delivery.workflow';

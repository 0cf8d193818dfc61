// The workflows of the `push` task queue, and only them: its workers bundle this file
// (workers/queue-push.ts).
export { pushSendWorkflow } from '../push-send/push-send.workflow';
export { campaignWorkflow } from '../campaign/campaign.workflow';
export { triggerBatchWorkflow } from '../trigger-batch/trigger-batch.workflow';

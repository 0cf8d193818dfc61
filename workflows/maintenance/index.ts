// The maintenance workflows, for workflows/index.ts to re-export to the worker bundle.
export { purgeRevokedKeysWorkflow } from './purge-revoked-keys.workflow';
export { purgeWebhookLogWorkflow } from './purge-webhook-log.workflow';
export { purgeEventsWorkflow } from './purge-events.workflow';
export { purgeIdempotencyKeysWorkflow } from './purge-idempotency-keys.workflow';

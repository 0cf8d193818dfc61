// The 'pause-endpoint' step as an activity: a thin adapter over the domain command
// (domain/webhooks/pause-exhausted-endpoints.ts), which pauses and emails through the
// email chain it is given.
import type { Db } from '../../db/db';
import { pauseExhaustedEndpoints, type PauseDeps } from '../../domain/webhooks/pause-exhausted-endpoints';
import type { WebhookExhaustedActivities } from '../../workflows/webhook-delivery/contract';
import { withDomainFailures } from '../failures';

export { PAUSED_AFTER_FAILURES } from '../../domain/webhooks/pause-exhausted-endpoints';

export interface PauseActivityDeps extends PauseDeps {
  db: Db;
}

export function createPauseActivities(deps: PauseActivityDeps): WebhookExhaustedActivities {
  return withDomainFailures({
    pauseExhaustedEndpoints: ({ deliveryIds }) => pauseExhaustedEndpoints(deps.db, deps, deliveryIds),
  });
}

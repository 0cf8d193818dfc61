// The platform ticket workflow's activity stub. Each step is a few milliseconds of
// PostgreSQL: a local activity runs it inside the workflow task (no round trip through
// the server per step), retried for as long as an outage lasts (a refusal is not
// retried: activities/failures.ts).
import { proxyLocalActivities } from '@temporalio/workflow';
import type { PlatformTicketActivities } from './contract';

export const storage = proxyLocalActivities<PlatformTicketActivities>({
  startToCloseTimeout: '15 seconds',
  retry: { initialInterval: '200 ms', backoffCoefficient: 2, maximumInterval: '30 seconds' },
});

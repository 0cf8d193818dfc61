// Every activity the platform ticket workflow calls, over the test database: its steps,
// SLA and automation activities and the risk assessment (a worker without the last would
// leave each ticket's assessment retrying). `overrides` replaces some with a test's own.
import { createPlatformRiskActivities } from '../../activities/platform/risk';
import { createPlatformTicketActivities } from '../../activities/platform/tickets';
import type { Db } from '../../db/db';

export function platformTicketActivities(db: Db, overrides: object = {}) {
  return { ...createPlatformTicketActivities({ db }), ...createPlatformRiskActivities({ db }), ...overrides };
}

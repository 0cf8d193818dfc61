// Registry entry of the `platform` task queue: the platform API's workflows (docs/platform.md,
// "Workflows"): token expiry and the other timers of the platform's entities, started
// from the workflow-start outbox with the rows they keep.
import { createPlatformActivities } from '../activities/platform';
import { PLATFORM_QUEUE } from '../workflows/platform-token/contract';
import type { QueueEntry } from './queue-entry';

export const platformQueue: QueueEntry = {
  name: PLATFORM_QUEUE,
  workflowsPath: require.resolve('../workflows/queues/platform'),
  workflowTypes: ['platformTokenExpiryWorkflow', 'platformWorkspaceDeletionWorkflow', 'platformTicketWorkflow', 'platformInvitationWorkflow', 'userDeactivationWorkflow'],
  activities: ({ config, db, client }) => createPlatformActivities({ config, db, client }),
  startsFromOutbox: true,
};

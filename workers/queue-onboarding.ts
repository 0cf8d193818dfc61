// Registry entry of the `onboarding` task queue: one workflow per trial request
// (workflows/trial-request), started from the workflow-start outbox (the API stores the
// request and its entry together), with its activities over the email chain
// (docs/trial-onboarding.md, "Email").
import { createTrialRequestActivities } from '../activities/onboarding/trial-request';
import { masterKey } from '../lib/crypto/master-key';
import { createEmailChain } from '../lib/email/chain';
import { logger } from '../lib/logger';
import { setupTokenKey } from '../lib/setup-tokens';
import { ONBOARDING_QUEUE } from '../workflows/onboarding/contract';
import type { QueueEntry } from './queue-entry';

export const onboardingQueue: QueueEntry = {
  name: ONBOARDING_QUEUE,
  workflowsPath: require.resolve('../workflows/queues/onboarding'),
  workflowTypes: ['trialRequestWorkflow'],
  activities({ config, db }) {
    return createTrialRequestActivities({
      db,
      chain: createEmailChain({ config, logger }),
      tokenKey: setupTokenKey(masterKey(config)),
      appUrl: config.appUrl,
    });
  },
  startsFromOutbox: true,
};

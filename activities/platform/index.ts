// Every activity of the `platform` task queue, one factory per platform area (one line each).
import type { Client } from '@temporalio/client';
import type { Db } from '../../db/db';
import { activationTokenKey } from '../../domain/platform/activation-token';
import type { Config } from '../../lib/config';
import { masterKey } from '../../lib/crypto/master-key';
import { createEmailChain } from '../../lib/email/chain';
import { logger } from '../../lib/logger';
import { createPlatformRiskActivities } from './risk';
import { createPlatformTicketActivities } from './tickets';
import { createPlatformTokenActivities } from './tokens';
import { createPlatformUserActivities } from './users';
import { createPlatformWorkspaceActivities } from './workspaces';

export interface PlatformActivityDeps {
  db: Db;
  config: Config;
  /** a Temporal client: activities that send Updates to other workflows (a user's deactivation) */
  client?: Client;
}

export function createPlatformActivities(deps: PlatformActivityDeps): object {
  return {
    ...createPlatformTokenActivities(deps),
    ...createPlatformUserActivities({ ...deps, chain: createEmailChain({ config: deps.config, logger }), tokenKey: activationTokenKey(masterKey(deps.config)), appUrl: deps.config.appUrl }),
    ...createPlatformWorkspaceActivities(deps),
    ...createPlatformTicketActivities(deps),
    ...createPlatformRiskActivities({ db: deps.db, openai: deps.config.triageOpenAi }),
  };
}

// Every activity of the `platform` task queue, one factory per platform area (one line each).
import type { Db } from '../../db/db';
import type { Config } from '../../lib/config';
import { createPlatformTicketActivities } from './tickets';
import { createPlatformTokenActivities } from './tokens';
import { createPlatformWorkspaceActivities } from './workspaces';

export interface PlatformActivityDeps {
  db: Db;
  config: Config;
}

export function createPlatformActivities(deps: PlatformActivityDeps): object {
  return {
    ...createPlatformTokenActivities(deps),
    ...createPlatformWorkspaceActivities(deps),
    ...createPlatformTicketActivities(deps),
  };
}

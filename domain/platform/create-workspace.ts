// Creates a workspace with its default plan and channels, inside the caller's transaction
// (docs/platform.md, "Workspaces": a new workspace has one channel of each type, so a
// ticket can be filed at once).
import type { Executor } from '../../db/db';
import { insertPlatformChannels, insertPlatformWorkspace } from '../../db/repositories/platform-workspaces';
import { newId } from '../../lib/ids';
import type { PlatformChannelRecord, PlatformChannelType, PlatformPlan, PlatformWorkspaceRecord } from './types';

export const DEFAULT_PLATFORM_PLAN: PlatformPlan = {
  name: 'standard',
  seats: 25,
  limits: { reads_per_minute: 120, writes_per_minute: 60, max_page_size: 100 },
};

export const DEFAULT_CHANNELS: { type: PlatformChannelType; name: string }[] = [
  { type: 'email', name: 'Email' },
  { type: 'web', name: 'Web form' },
  { type: 'chat', name: 'Live chat' },
  { type: 'in_game', name: 'In-game' },
  { type: 'api', name: 'API' },
];

export interface CreateWorkspaceInput {
  organizationId: string;
  name: string;
  timezone?: string;
  defaultLanguage?: string;
  now: Date;
}

export async function createPlatformWorkspace(
  executor: Executor,
  input: CreateWorkspaceInput,
): Promise<{ workspace: PlatformWorkspaceRecord; channels: PlatformChannelRecord[] }> {
  const workspace = await insertPlatformWorkspace(executor, {
    id: newId('ws', input.now.getTime()),
    organizationId: input.organizationId,
    name: input.name,
    timezone: input.timezone ?? 'UTC',
    defaultLanguage: input.defaultLanguage ?? 'en',
    plan: DEFAULT_PLATFORM_PLAN,
    createdAt: input.now,
  });
  const channels = await insertPlatformChannels(
    executor,
    DEFAULT_CHANNELS.map((c) => ({ id: newId('ch', input.now.getTime()), workspaceId: workspace.id, type: c.type, name: c.name, createdAt: input.now })),
  );
  return { workspace, channels };
}

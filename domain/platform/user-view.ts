// A platform user as the users resource reads it (docs/platform.md, "Users"): the record,
// the workspaces they work in, and how many times they were deactivated (each deactivation
// has its own workflow: workflows/platform-user/contract.ts userDeactivationWorkflowId).
import type { PlatformUserRecord } from './types';

export interface PlatformUserView extends PlatformUserRecord {
  /** their memberships, oldest first */
  workspaceIds: string[];
  deactivations: number;
}

// Who may do what on the platform API (docs/platform.md, "Roles"). Pure rules over a
// caller (a token's principal: its creator's role now, its workspace) and a target. The
// API's routes ask these; a refusal is the 403 of domain/platform/errors.ts, and a row of
// a workspace the caller cannot reach is the 404 (nobody learns what exists elsewhere).
import type { PlatformRole } from './types';

export interface PlatformCaller {
  organizationId: string;
  /** the token's workspace */
  workspaceId: string;
  userId: string;
  role: PlatformRole;
  isOrgAdmin: boolean;
}

const RANK: Record<PlatformRole, number> = { agent: 1, manager: 2, admin: 3 };

/** Whether the caller's role is `role` or above it (an organisation admin is an admin). */
export const hasRole = (caller: Pick<PlatformCaller, 'role' | 'isOrgAdmin'>, role: PlatformRole): boolean =>
  caller.isOrgAdmin || RANK[caller.role] >= RANK[role];

/**
 * Whether the caller reaches a workspace: its token's own, and every workspace of the
 * organisation for an organisation admin. Another organisation's never.
 */
export const reachesWorkspace = (caller: PlatformCaller, workspace: { id: string; organizationId: string }): boolean =>
  workspace.organizationId === caller.organizationId && (caller.isOrgAdmin || workspace.id === caller.workspaceId);

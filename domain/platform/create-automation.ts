// POST /automations: a manager or an admin adds a rule to a workspace they reach (their
// token's, or any of the organisation's for an organisation admin), for the tickets of
// their token's environment. An unreachable workspace is a 404 (checked before the role:
// nobody learns what exists), an agent a 403, a workspace pending deletion a 409, a
// workspace at its limit of rules a 409; a reference that is not the workspace's a 400.
import type { Db, Executor } from '../../db/db';
import { countPlatformAutomations, insertPlatformAutomation, type NewPlatformAutomation } from '../../db/repositories/platform-automations';
import { lockPlatformWorkspace } from '../../db/repositories/platform-workspaces';
import { hasRole, reachesWorkspace, type PlatformCaller } from './access.rules';
import { checkAutomationReferences } from './automation-references';
import {
  checkAutomationRule,
  MAX_AUTOMATIONS_PER_WORKSPACE,
  type PlatformAutomationRecord,
} from './automation.rules';
import { platformConflict, platformForbidden, platformNotFound } from './errors';

/** What the API asks for: the new rule's fields (its organisation and creator are the caller's). */
export type NewAutomationInput = Omit<NewPlatformAutomation, 'id' | 'organizationId' | 'createdBy'> & { automationId: string };

/**
 * `first` runs first in the create's transaction: the route binds the Idempotency-Key to
 * the new rule's id there, so a retry after a crash finds the rule instead of making a second.
 */
export async function createPlatformAutomation(
  db: Db,
  caller: PlatformCaller,
  input: NewAutomationInput,
  first?: (m: Executor) => Promise<void>,
): Promise<PlatformAutomationRecord> {
  checkAutomationRule(input);
  return db.transaction(async (m) => {
    await first?.(m);
    // the workspace's row lock serialises creates, so the limit holds under concurrency
    const workspace = await lockPlatformWorkspace(m, input.workspaceId);
    if (!workspace || !reachesWorkspace(caller, workspace)) throw platformNotFound('workspace', input.workspaceId);
    if (!hasRole(caller, 'manager')) throw platformForbidden('Only a manager or an admin may manage automations');
    if (workspace.status !== 'active') throw platformConflict(`Workspace '${workspace.id}' is scheduled for deletion; restore it first`, { status: workspace.status });
    await checkAutomationReferences(m, workspace, input);
    if ((await countPlatformAutomations(m, workspace.id, input.environment)) >= MAX_AUTOMATIONS_PER_WORKSPACE) {
      throw platformConflict(`Workspace '${workspace.id}' has ${MAX_AUTOMATIONS_PER_WORKSPACE} automations in this environment, the most it may have`, { limit: MAX_AUTOMATIONS_PER_WORKSPACE });
    }
    return insertPlatformAutomation(m, {
      id: input.automationId,
      organizationId: workspace.organizationId,
      workspaceId: workspace.id,
      environment: input.environment,
      name: input.name,
      trigger: input.trigger,
      conditions: input.conditions,
      actions: input.actions,
      active: input.active,
      createdBy: caller.userId,
      now: input.now,
    });
  });
}

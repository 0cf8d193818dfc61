// PATCH /automations/{id}: a manager or an admin who sees the rule (its workspace in
// reach, its environment the token's) changes it. Another's rule is a 404 (before the
// role), an agent a 403. A change replaces what it names (conditions and actions as whole
// lists) and is checked as a new rule is; a workspace pending deletion takes no change
// (409). A ticket step reads the rule as it is when the step runs.
import type { Db } from '../../db/db';
import { lockPlatformAutomation, updatePlatformAutomation, type PlatformAutomationSets } from '../../db/repositories/platform-automations';
import { findPlatformWorkspace } from '../../db/repositories/platform-workspaces';
import { hasRole } from './access.rules';
import { checkAutomationReferences } from './automation-references';
import { checkAutomationRule, reachesAutomation, type PlatformAutomationRecord } from './automation.rules';
import { platformConflict, platformForbidden, platformNotFound } from './errors';
import type { Executor } from '../../db/db';
import type { PlatformCaller } from './access.rules';
import type { PlatformEnvironment } from './types';

type Caller = PlatformCaller & { environment: PlatformEnvironment };

/** The rule locked, if the caller may manage it: else its 404 (not in reach) or 403 (an agent). */
export async function lockOwnAutomation(m: Executor, caller: Caller, id: string): Promise<PlatformAutomationRecord> {
  const rule = await lockPlatformAutomation(m, id);
  if (!rule || !reachesAutomation(caller, rule)) throw platformNotFound('automation', id);
  if (!hasRole(caller, 'manager')) throw platformForbidden('Only a manager or an admin may manage automations');
  return rule;
}

export async function changePlatformAutomation(db: Db, caller: Caller, id: string, sets: PlatformAutomationSets, now: Date): Promise<PlatformAutomationRecord> {
  checkAutomationRule(sets);
  return db.transaction(async (m) => {
    const rule = await lockOwnAutomation(m, caller, id);
    const workspace = await findPlatformWorkspace(m, rule.workspaceId);
    if (!workspace) throw platformNotFound('automation', id);
    if (workspace.status !== 'active') throw platformConflict(`Workspace '${workspace.id}' is scheduled for deletion; restore it first`, { status: workspace.status });
    await checkAutomationReferences(m, workspace, sets);
    return updatePlatformAutomation(m, id, sets, now);
  });
}

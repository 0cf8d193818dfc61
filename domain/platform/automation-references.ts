// The references a platform automation names must be its workspace's (docs/platform.md,
// "Automations"): a channel condition names channels of the workspace, an assignee
// condition users of the organisation (in any state: a rule may name a deactivated
// assignee, as the ticket list's filter may), an `assign` action an active user who works
// in the workspace. Anything else is a 400 on that field, the same for an unknown id and
// another organisation's (nothing leaks).
import type { Executor } from '../../db/db';
import { isActivePlatformWorker, isPlatformOrganizationUser } from '../../db/repositories/platform-tickets';
import { findPlatformChannel } from '../../db/repositories/platform-workspaces';
import type { AutomationAction, AutomationCondition } from './automation.rules';
import { platformInvalidField } from './errors';

export async function checkAutomationReferences(
  executor: Executor,
  workspace: { id: string; organizationId: string },
  rule: { conditions?: AutomationCondition[]; actions?: AutomationAction[] },
): Promise<void> {
  for (const [i, c] of (rule.conditions ?? []).entries()) {
    const values = Array.isArray(c.value) ? c.value : [c.value];
    for (const v of values) {
      if (v === null) continue;
      if (c.field === 'channel_id') {
        const channel = await findPlatformChannel(executor, v);
        if (!channel || channel.workspaceId !== workspace.id) throw platformInvalidField(`conditions.${i}.value`, `No channel '${v}' in this workspace`);
      }
      if (c.field === 'assignee_id' && !(await isPlatformOrganizationUser(executor, workspace.organizationId, v))) {
        throw platformInvalidField(`conditions.${i}.value`, `No user '${v}'`);
      }
    }
  }
  for (const [i, a] of (rule.actions ?? []).entries()) {
    if (a.type === 'assign' && a.user_id !== null && !(await isActivePlatformWorker(executor, workspace.id, a.user_id))) {
      throw platformInvalidField(`actions.${i}.user_id`, `No active user '${a.user_id}' works in this workspace`);
    }
  }
}

// The references a platform automation names must be its workspace's (docs/platform.md,
// "Automations"): a channel condition names channels of the workspace, an assignee
// condition users of the organisation (in any state: a rule may name a deactivated
// assignee, as the ticket list's filter may), an `assign` action an active user who works
// in the workspace. Anything else is a 400 on that field, the same for an unknown id and
// another organisation's (nothing leaks). A rule names up to 1,000 ids in its conditions:
// they are looked up in one query per kind.
import type { Executor } from '../../db/db';
import { organizationUserIds, workspaceChannelIds } from '../../db/repositories/platform-automations';
import { isActivePlatformWorker } from '../../db/repositories/platform-tickets';
import type { AutomationAction, AutomationCondition } from './automation.rules';
import { platformInvalidField } from './errors';

const idsOf = (conditions: AutomationCondition[], field: 'channel_id' | 'assignee_id') =>
  [...new Set(conditions.filter((c) => c.field === field).flatMap((c) => (Array.isArray(c.value) ? c.value : [c.value])).filter((v): v is string => v !== null))];

export async function checkAutomationReferences(
  executor: Executor,
  workspace: { id: string; organizationId: string },
  rule: { conditions?: AutomationCondition[]; actions?: AutomationAction[] },
): Promise<void> {
  const conditions = rule.conditions ?? [];
  const channels = await workspaceChannelIds(executor, workspace.id, idsOf(conditions, 'channel_id'));
  const users = await organizationUserIds(executor, workspace.organizationId, idsOf(conditions, 'assignee_id'));
  for (const [i, c] of conditions.entries()) {
    for (const v of Array.isArray(c.value) ? c.value : [c.value]) {
      if (v === null) continue;
      if (c.field === 'channel_id' && !channels.has(v)) throw platformInvalidField(`conditions.${i}.value`, `No channel '${v}' in this workspace`);
      if (c.field === 'assignee_id' && !users.has(v)) throw platformInvalidField(`conditions.${i}.value`, `No user '${v}'`);
    }
  }
  for (const [i, a] of (rule.actions ?? []).entries()) {
    if (a.type === 'assign' && a.user_id !== null && !(await isActivePlatformWorker(executor, workspace.id, a.user_id))) {
      throw platformInvalidField(`actions.${i}.user_id`, `No active user '${a.user_id}' works in this workspace`);
    }
  }
}

import type { PlatformAutomationRecord } from '../../../domain/platform/automation.rules';
import { iso } from '../../kit/dates';
import type { Automation } from './schema';

/** A rule as the API shows it: its conditions and actions as they were given (stored as given, after validation). */
export function presentAutomation(a: PlatformAutomationRecord): Automation {
  return {
    id: a.id,
    workspace_id: a.workspaceId,
    environment: a.environment,
    name: a.name,
    trigger: a.trigger,
    conditions: a.conditions,
    actions: a.actions,
    active: a.active,
    created_by: a.createdBy,
    created_at: iso(a.createdAt),
    updated_at: iso(a.updatedAt),
  };
}

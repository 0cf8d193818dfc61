import type { PlatformChannelRecord, PlatformWorkspaceRecord } from '../../../domain/platform/types';
import { activeSlaPolicies } from '../../../domain/platform/sla-defaults.rules';
import { iso, isoOrNull } from '../../kit/dates';
import type { Workspace, WorkspaceDetail } from './schema';

/** A workspace as lists show it. */
export function presentWorkspace(w: PlatformWorkspaceRecord): Workspace {
  return {
    id: w.id,
    name: w.name,
    timezone: w.timezone,
    default_language: w.defaultLanguage,
    plan: { name: w.plan.name, seats: w.plan.seats, limits: { ...w.plan.limits } },
    status: w.status,
    deletion_requested_at: isoOrNull(w.deletionRequestedAt),
    purge_at: isoOrNull(w.purgeAt),
    created_at: iso(w.createdAt),
    updated_at: iso(w.updatedAt),
  };
}

/** A workspace on its own (GET, POST, PATCH, DELETE, restore): with channels, SLA policies and agent count. */
export function presentWorkspaceDetail(w: PlatformWorkspaceRecord, channels: PlatformChannelRecord[], agentCount: number): WorkspaceDetail {
  return {
    ...presentWorkspace(w),
    channels: channels.map((c) => ({ id: c.id, type: c.type, name: c.name })),
    sla_policies: activeSlaPolicies(w.slaPolicies).map((p) => ({ priority: p.priority, first_response_minutes: p.firstResponseMinutes, resolution_minutes: p.resolutionMinutes })),
    agent_count: agentCount,
  };
}

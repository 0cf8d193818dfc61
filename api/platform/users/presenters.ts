import type { PlatformUserView } from '../../../domain/platform/user-view';
import { iso, isoOrNull } from '../../kit/dates';
import type { User } from './schema';

export function presentUser(u: PlatformUserView): User {
  return {
    id: u.id,
    name: u.name,
    email: u.email,
    role: u.role,
    is_org_admin: u.isOrgAdmin,
    status: u.status,
    workspace_ids: u.workspaceIds,
    created_at: iso(u.createdAt),
    last_active_at: isoOrNull(u.lastActiveAt),
    deactivated_at: isoOrNull(u.deactivatedAt),
  };
}

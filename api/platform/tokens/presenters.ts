import type { PlatformTokenRecord } from '../../../domain/platform/types';
import { iso, isoOrNull } from '../../kit/dates';
import type { Token } from './schema';

/** A token without its secret; `expired` once its time has come (the timer's mark, or the clock). */
export function presentToken(t: PlatformTokenRecord, now: Date): Token {
  const expired = t.expiredAt !== null || (t.expiresAt !== null && new Date(t.expiresAt).getTime() <= now.getTime());
  return {
    id: t.id,
    name: t.name,
    workspace_id: t.workspaceId,
    environment: t.environment,
    prefix: t.prefix,
    created_by: t.userId,
    status: t.revokedAt ? 'revoked' : expired ? 'expired' : 'active',
    created_at: iso(t.createdAt),
    expires_at: isoOrNull(t.expiresAt),
    last_used_at: isoOrNull(t.lastUsedAt),
    revoked_at: isoOrNull(t.revokedAt),
  };
}

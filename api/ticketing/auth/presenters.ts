import type { z } from '../../zod';
import type { KeyRow } from '../../../domain/auth/types';
import type { ApiKeyMetadata } from './schema';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** Key metadata as every auth endpoint shows it; the secret and its hash never leave the database. */
export function presentKey(row: KeyRow): z.infer<typeof ApiKeyMetadata> {
  return {
    id: row.id,
    organizationId: row.organizationId,
    name: row.name,
    type: row.type,
    environment: row.environment,
    prefix: row.prefix,
    scopes: row.scopes,
    workspaceId: row.workspaceId,
    playerId: row.playerId,
    lastUsedAt: iso(row.lastUsedAt),
    createdAt: row.createdAt.toISOString(),
    revokedAt: iso(row.revokedAt),
  };
}

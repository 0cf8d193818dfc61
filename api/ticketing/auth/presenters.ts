import type { z } from '../../zod';
import type { KeyRow } from '../../../domain/auth/types';
import type { ApiKeyMetadata } from './schema';
import { iso, isoOrNull } from '../../kit/dates';

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
    lastUsedAt: isoOrNull(row.lastUsedAt),
    createdAt: iso(row.createdAt),
    revokedAt: isoOrNull(row.revokedAt),
  };
}

import type { PushApiKeyRow } from '../../../domain/push/types';
import type { ApiKey } from './schema';
import { iso, isoOrNull } from '../../kit/dates';

export function presentApiKey(k: PushApiKeyRow): ApiKey {
  return {
    id: k.id,
    appId: k.appId,
    name: k.name,
    prefix: k.prefix,
    createdAt: iso(k.createdAt),
    lastUsedAt: isoOrNull(k.lastUsedAt),
  };
}

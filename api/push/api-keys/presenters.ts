import type { PushApiKeyRow } from '../../../domain/push/types';

export function presentApiKey(k: PushApiKeyRow) {
  return {
    id: k.id,
    appId: k.appId,
    name: k.name,
    prefix: k.prefix,
    createdAt: new Date(k.createdAt).toISOString(),
    lastUsedAt: k.lastUsedAt ? new Date(k.lastUsedAt).toISOString() : null,
  };
}

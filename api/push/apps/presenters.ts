import type { PushAppRecord } from '../../../domain/push/types';

/** The App of the spec: never the credentials, only whether each is set. */
export function presentApp(a: PushAppRecord) {
  return {
    id: a.id,
    name: a.name,
    bundleId: a.bundleId,
    platform: a.platform,
    hasFcmConfig: a.hasFcmConfig,
    hasApnsConfig: a.hasApnsConfig,
    createdAt: new Date(a.createdAt).toISOString(),
    updatedAt: new Date(a.updatedAt).toISOString(),
  };
}

import type { PushAppRecord } from '../../../domain/push/types';
import type { App } from './schema';
import { iso } from '../../kit/dates';

/** The App of the spec: never the credentials, only whether each is set. */
export function presentApp(a: PushAppRecord): App {
  return {
    id: a.id,
    name: a.name,
    bundleId: a.bundleId,
    platform: a.platform,
    hasFcmConfig: a.hasFcmConfig,
    hasApnsConfig: a.hasApnsConfig,
    createdAt: iso(a.createdAt),
    updatedAt: iso(a.updatedAt),
  };
}

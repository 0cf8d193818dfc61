import { randomUUID } from 'node:crypto';
import type { Executor } from '../../db/db';
import { findPushApp, insertPushApp } from '../../db/repositories/push-apps';
import type { Platform, PushAppRecord } from './types';

export interface NewApp {
  companyId: string;
  name: string;
  bundleId: string;
  platform: Platform;
}

/** A new app of the company, without credentials yet (set-app-credentials.ts adds them). */
export async function createApp(executor: Executor, app: NewApp): Promise<PushAppRecord> {
  const id = randomUUID();
  await insertPushApp(executor, { id, ...app });
  return (await findPushApp(executor, id))!;
}

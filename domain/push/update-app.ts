// An app's changes after creation: its name, and its FCM or APNs credentials, stored
// sealed (lib/push/credential-box.ts) so only the transports ever open them.
import type { Executor } from '../../db/db';
import { findPushApp, renamePushApp, setPushAppCredentials } from '../../db/repositories/push-apps';
import type { Config } from '../../lib/config';
import { sealCredentials } from '../../lib/push/credential-box';
import type { ApnsKey } from '../../lib/push/credentials';
import type { PushAppRecord } from './types';

export async function renameApp(executor: Executor, appId: string, name: string): Promise<PushAppRecord> {
  await renamePushApp(executor, appId, name);
  return (await findPushApp(executor, appId))!;
}

/** Credentials the caller has checked already (lib/push/credentials.ts parses them). */
export type AppCredentials = { kind: 'fcm'; value: { serviceAccountJson: string } } | { kind: 'apns'; value: ApnsKey };

/** Seals the credentials with the master key, bound to the app and the kind, and stores them. */
export async function setAppCredentials(
  executor: Executor,
  config: Pick<Config, 'webhookSecretKey'>,
  appId: string,
  credentials: AppCredentials,
): Promise<PushAppRecord> {
  await setPushAppCredentials(executor, appId, credentials.kind, sealCredentials(config, appId, credentials.kind, credentials.value));
  return (await findPushApp(executor, appId))!;
}

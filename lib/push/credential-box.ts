// An app's FCM and APNs credentials at rest: JSON sealed with the project's secret box
// (the same key as webhook signing secrets), bound to the app and the kind so a box
// copied onto another app or column does not open.
import { masterKey } from '../crypto/master-key';
import { decryptSecret, encryptSecret } from '../crypto/secret-box';
import type { Config } from '../config';
import type { ApnsKey } from './credentials';

export type CredentialKind = 'fcm' | 'apns';

const context = (appId: string, kind: CredentialKind) => `push-app:${appId}:${kind}`;

export function sealCredentials(config: Pick<Config, 'webhookSecretKey'>, appId: string, kind: CredentialKind, value: unknown): string {
  return encryptSecret(masterKey(config), JSON.stringify(value), context(appId, kind));
}

/** The FCM service-account JSON text, as the app stored it. */
export function openFcmCredentials(config: Pick<Config, 'webhookSecretKey'>, appId: string, box: string): { serviceAccountJson: string } {
  return JSON.parse(decryptSecret(masterKey(config), box, context(appId, 'fcm')));
}

export function openApnsCredentials(config: Pick<Config, 'webhookSecretKey'>, appId: string, box: string): ApnsKey {
  return JSON.parse(decryptSecret(masterKey(config), box, context(appId, 'apns')));
}

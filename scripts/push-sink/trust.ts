// The credentials the sink accepts, as the real services know their customers' keys:
// service accounts by client_email (public key checks the OAuth assertion) and APNs
// keys by key id (public key checks the provider token, team and topic must match).
import { createPublicKey, type KeyObject } from 'node:crypto';
import { parseFcmServiceAccount } from '../../lib/push/credentials';

export interface TrustedCredentials {
  serviceAccountJson?: string;
  apns?: { keyId: string; teamId: string; bundleId: string; p8KeyContent: string };
}

export interface SinkTrust {
  fcm: Map<string, { projectId: string; publicKey: KeyObject }>;
  apns: Map<string, { teamId: string; bundleId: string; publicKey: KeyObject }>;
}

export function buildTrust(list: TrustedCredentials[]): SinkTrust {
  const trust: SinkTrust = { fcm: new Map(), apns: new Map() };
  for (const c of list) {
    if (c.serviceAccountJson) {
      const sa = parseFcmServiceAccount(c.serviceAccountJson);
      trust.fcm.set(sa.clientEmail, { projectId: sa.projectId, publicKey: createPublicKey(sa.privateKey) });
    }
    if (c.apns) {
      trust.apns.set(c.apns.keyId, {
        teamId: c.apns.teamId,
        bundleId: c.apns.bundleId,
        publicKey: createPublicKey(c.apns.p8KeyContent),
      });
    }
  }
  return trust;
}

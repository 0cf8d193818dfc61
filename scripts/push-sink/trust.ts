// The credentials the sink accepts, as the real services know their customers' keys:
// service accounts by client_email (public key checks the OAuth assertion) and APNs
// keys by key id (public key checks the provider token, team and topic must match).
//
// Two kinds of entries: a static list given at start (the demo credentials, a test's
// own), and per-app entries a dynamic source keeps up to date (push-sink/db-trust.ts:
// every app's uploaded credentials from the stack's database). Several entries may share
// a client_email or key id (two apps uploading the same service account, a key and its
// replacement during a reload): a request is accepted when any of them verifies it.
import { createPublicKey, type KeyObject } from 'node:crypto';
import { parseApnsKey, parseFcmServiceAccount } from '../../lib/push/credentials';

export interface TrustedCredentials {
  serviceAccountJson?: string;
  apns?: { keyId: string; teamId: string; bundleId: string; p8KeyContent: string };
}

export interface TrustedFcmAccount {
  projectId: string;
  publicKey: KeyObject;
}

export interface TrustedApnsKey {
  teamId: string;
  bundleId: string;
  publicKey: KeyObject;
}

interface Entries {
  fcm?: { clientEmail: string; account: TrustedFcmAccount; fingerprint: string };
  apns?: { keyId: string; key: TrustedApnsKey; fingerprint: string };
}

const fingerprint = (key: KeyObject, ...more: string[]) =>
  [key.export({ type: 'spki', format: 'der' }).toString('base64'), ...more].join(' ');

/** What the sink trusts now; handlers look keys up here on every request. */
export class SinkTrust {
  private readonly staticEntries: Entries[];
  private apps = new Map<string, Entries>();
  private fcmIndex = new Map<string, TrustedFcmAccount[]>();
  private apnsIndex = new Map<string, TrustedApnsKey[]>();
  /** parsed keys by the text they came from: a full reload re-parses only what changed */
  private parsed = new Map<string, Entries['fcm'] | Entries['apns']>();
  private refresher?: () => Promise<void>;
  private inFlight?: Promise<void>;
  private queued?: Promise<void>;

  constructor(list: TrustedCredentials[] = []) {
    this.staticEntries = list.map((c) => entriesOf(c));
    this.reindex();
  }

  /** The accounts with this client_email (the OAuth assertion's `iss`). */
  fcm(clientEmail: string): TrustedFcmAccount[] {
    return this.fcmIndex.get(clientEmail) ?? [];
  }

  /** The keys with this key id (the provider token's `kid`). */
  apns(keyId: string): TrustedApnsKey[] {
    return this.apnsIndex.get(keyId) ?? [];
  }

  /** How many apps' credentials the dynamic source has given (for logs and tests). */
  appCount(): number {
    return this.apps.size;
  }

  /**
   * Every app's credentials at once (a full reload): apps not in `apps` are forgotten.
   * An app whose keys do not parse is left out (answered in the list), not the others.
   */
  replaceApps(apps: Map<string, TrustedCredentials>): Array<{ appId: string; error: Error }> {
    const failed: Array<{ appId: string; error: Error }> = [];
    const next = new Map<string, Entries>();
    const parsed = new Map<string, Entries['fcm'] | Entries['apns']>();
    for (const [appId, c] of apps) {
      try {
        next.set(appId, entriesOf(c, this.parsed, parsed));
      } catch (error) {
        failed.push({ appId, error: error as Error });
      }
    }
    this.apps = next;
    this.parsed = parsed;
    this.reindex();
    return failed;
  }

  /** One app's credentials (null: it has none any more, or is gone); throws when they do not parse. */
  setApp(appId: string, credentials: TrustedCredentials | null): void {
    if (credentials && (credentials.serviceAccountJson || credentials.apns)) this.apps.set(appId, entriesOf(credentials, this.parsed, this.parsed));
    else this.apps.delete(appId);
    this.reindex();
  }

  /** The dynamic source's full reload, run when a request names a key the sink does not know. */
  setRefresher(refresh: (() => Promise<void>) | undefined): void {
    this.refresher = refresh;
  }

  /**
   * For a request whose key verified against nothing: a credential uploaded a moment ago
   * may not have reached the sink yet (its notification still in flight), so reload once
   * and let the caller look again. Misses share reloads: one that began before this miss
   * may have read too early, so the miss waits for the next one, which every miss until it
   * begins shares (at most one running and one waiting). False when there is no dynamic
   * source (the static list is all there is). Never throws: a reload that fails
   * (PostgreSQL down) leaves the last known trust.
   */
  async refreshOnMiss(timeoutMs = 2000): Promise<boolean> {
    if (!this.refresher) return false;
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.reload(), new Promise<void>((r) => (timer = setTimeout(r, timeoutMs)))]);
    clearTimeout(timer);
    return true;
  }

  private reload(): Promise<void> {
    if (!this.inFlight) {
      const refresh = this.refresher ?? (() => Promise.resolve());
      this.inFlight = refresh()
        .catch(() => undefined)
        .finally(() => {
          this.inFlight = undefined;
        });
      return this.inFlight;
    }
    this.queued ??= this.inFlight.then(() => {
      this.queued = undefined;
      return this.reload();
    });
    return this.queued;
  }

  private reindex(): void {
    // many apps may hold the same credentials (every test app uploads the demo ones): one
    // entry each, so a request verifies a signature once, not once per app
    const fcm = new Map<string, TrustedFcmAccount[]>();
    const apns = new Map<string, TrustedApnsKey[]>();
    const seen = new Set<string>();
    for (const e of [...this.staticEntries, ...this.apps.values()]) {
      if (e.fcm && !seen.has(`fcm ${e.fcm.clientEmail} ${e.fcm.fingerprint}`)) {
        seen.add(`fcm ${e.fcm.clientEmail} ${e.fcm.fingerprint}`);
        fcm.set(e.fcm.clientEmail, [...(fcm.get(e.fcm.clientEmail) ?? []), e.fcm.account]);
      }
      if (e.apns && !seen.has(`apns ${e.apns.keyId} ${e.apns.fingerprint}`)) {
        seen.add(`apns ${e.apns.keyId} ${e.apns.fingerprint}`);
        apns.set(e.apns.keyId, [...(apns.get(e.apns.keyId) ?? []), e.apns.key]);
      }
    }
    this.fcmIndex = fcm;
    this.apnsIndex = apns;
  }
}

/** Parses `c` (reusing what `known` parsed from the same text), noting what it used in `used`. */
function entriesOf(
  c: TrustedCredentials,
  known = new Map<string, Entries['fcm'] | Entries['apns']>(),
  used = new Map<string, Entries['fcm'] | Entries['apns']>(),
): Entries {
  const e: Entries = {};
  if (c.serviceAccountJson) {
    const text = `fcm ${c.serviceAccountJson}`;
    e.fcm = (known.get(text) as Entries['fcm']) ?? parseFcm(c.serviceAccountJson);
    used.set(text, e.fcm);
  }
  if (c.apns) {
    const { keyId, teamId, bundleId, p8KeyContent } = c.apns;
    const text = `apns ${JSON.stringify([keyId, teamId, bundleId, p8KeyContent])}`;
    e.apns = (known.get(text) as Entries['apns']) ?? parseApns(keyId, teamId, bundleId, p8KeyContent);
    used.set(text, e.apns);
  }
  return e;
}

function parseFcm(serviceAccountJson: string): NonNullable<Entries['fcm']> {
  const sa = parseFcmServiceAccount(serviceAccountJson);
  const publicKey = createPublicKey(sa.privateKey);
  return { clientEmail: sa.clientEmail, account: { projectId: sa.projectId, publicKey }, fingerprint: fingerprint(publicKey, sa.projectId) };
}

function parseApns(keyId: string, teamId: string, bundleId: string, p8: string): NonNullable<Entries['apns']> {
  const publicKey = createPublicKey(parseApnsKey(p8));
  return { keyId, key: { teamId, bundleId, publicKey }, fingerprint: fingerprint(publicKey, teamId, bundleId) };
}

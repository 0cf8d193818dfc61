// The sink's dynamic trust: every credential uploaded to the stack it serves, read from
// that stack's PostgreSQL (push_apps, sealed with the master key: lib/push/credential-box)
// the way Google and Apple know every customer's keys.
//   - at start and after every reconnect: a full reload (apps not listed are forgotten);
//   - LISTEN push_app_credentials: a trigger NOTIFYs an app's id when its credentials are
//     set, replaced or deleted, and that app alone is reloaded;
//   - a request whose key verifies against nothing reloads everything once before it is
//     refused (SinkTrust.refreshOnMiss), which closes the moment between an upload's
//     commit and its notification's arrival.
// PostgreSQL down (at start or later) never stops the sink: it keeps the last trust it
// knew and reconnects every `retryMs`.
import { connectDb, type Db, type Listener } from '../../db/db';
import { listSealedPushAppCredentials, PUSH_APP_CREDENTIALS_CHANNEL, sealedPushAppCredentials } from '../../db/repositories/push-apps';
import type { Config } from '../../lib/config';
import { openApnsCredentials, openFcmCredentials } from '../../lib/push/credential-box';
import type { SinkTrust, TrustedCredentials } from './trust';

export interface DbTrustOptions {
  databaseUrl: string;
  /** the stack's configuration: its master key opens the sealed credentials */
  config: Pick<Config, 'webhookSecretKey'>;
  /** how soon a lost connection or a failed load is tried again (default 1 s) */
  retryMs?: number;
  log?: (line: string) => void;
}

export interface TrustSourceHandle {
  close(): Promise<void>;
}

/**
 * Keeps `trust`'s per-app entries equal to the database's. Resolves after the first
 * attempt to connect and load (whether or not PostgreSQL answered), so a sink started
 * with a reachable database trusts every stored credential from its first request.
 */
export async function startDbTrust(trust: SinkTrust, opts: DbTrustOptions): Promise<TrustSourceHandle> {
  const retryMs = opts.retryMs ?? 1000;
  const log = opts.log ?? (() => undefined);
  let db: Db | undefined;
  let listener: Listener | undefined;
  let retry: NodeJS.Timeout | undefined;
  let closed = false;
  let down = false;
  // one load at a time, in order: an app's reload never lands under an older full reload
  let chain: Promise<unknown> = Promise.resolve();
  const serial = <T>(fn: () => Promise<T>): Promise<T> => {
    const p = chain.then(fn);
    chain = p.catch(() => undefined);
    return p;
  };

  const credentialsOf = (appId: string, sealed: { fcm: string | null; apns: string | null }): TrustedCredentials | null => {
    const c: TrustedCredentials = {};
    // a box that does not open (sealed under another master key) is simply not trusted
    try {
      if (sealed.fcm) c.serviceAccountJson = openFcmCredentials(opts.config, appId, sealed.fcm).serviceAccountJson;
    } catch (err) {
      log(`push sink: the FCM credentials of app ${appId} do not open (${(err as Error).message}); not trusted`);
    }
    try {
      if (sealed.apns) c.apns = openApnsCredentials(opts.config, appId, sealed.apns);
    } catch (err) {
      log(`push sink: the APNs credentials of app ${appId} do not open (${(err as Error).message}); not trusted`);
    }
    return c.serviceAccountJson || c.apns ? c : null;
  };

  const fullReload = () =>
    serial(async () => {
      if (!db) throw new Error('not connected');
      const rows = await listSealedPushAppCredentials(db);
      const apps = new Map<string, TrustedCredentials>();
      for (const row of rows) {
        const c = credentialsOf(row.id, row);
        if (c) apps.set(row.id, c);
      }
      for (const { appId, error } of trust.replaceApps(apps)) {
        log(`push sink: the credentials of app ${appId} are not usable (${error.message}); not trusted`);
      }
    });

  const reloadApp = (appId: string) =>
    serial(async () => {
      if (!db) return;
      const sealed = await sealedPushAppCredentials(db, appId);
      try {
        trust.setApp(appId, sealed ? credentialsOf(appId, sealed) : null);
      } catch (err) {
        // the API checked the key, but a row written by hand may hold anything
        trust.setApp(appId, null);
        log(`push sink: the credentials of app ${appId} are not usable (${(err as Error).message}); not trusted`);
      }
    }).catch(() => {
      // PostgreSQL went away mid-reload: the listener's error reconnects and reloads all
      if (!closed) schedule();
    });

  function schedule(): void {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      void attempt();
    }, retryMs);
    retry.unref();
  }

  /** Connect (once), LISTEN, then reload everything; on any failure, again in `retryMs`. */
  async function attempt(): Promise<void> {
    if (closed) return;
    try {
      db ??= await connectDb(opts.databaseUrl, 2);
      if (!listener) {
        const l: Listener = await db.listen(PUSH_APP_CREDENTIALS_CHANNEL, {
          onNotify: (appId) => void reloadApp(appId),
          onError: () => {
            if (listener === l) listener = undefined;
            if (!closed) {
              log('push sink: lost its database connection; keeping the credentials it knows and reconnecting');
              down = true;
              schedule();
            }
          },
        });
        if (closed) return void (await l.close());
        listener = l;
      }
      await fullReload(); // after LISTEN: nothing committed in between is missed
      log(`push sink: trusting the credentials of ${trust.appCount()} app(s) from the database`);
      down = false;
    } catch (err) {
      if (!down) log(`push sink: the database does not answer (${(err as Error).message}); serving the credentials it knows, retrying`);
      down = true;
      schedule();
    }
  }

  trust.setRefresher(() => (db && !closed ? fullReload() : Promise.resolve()));
  await attempt();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      trust.setRefresher(undefined);
      await chain;
      await listener?.close().catch(() => undefined);
      await db?.close().catch(() => undefined);
    },
  };
}

// The worker's open transports, one per (app, platform), reused across pages and sends
// while the app's credentials stay the same: an FCM transport's OAuth token and HTTP/2
// session, an APNs session and its JWT, cost a handshake each when opened. Closed after
// a minute unused, or when the credentials change.
import type { PushTransport } from '../../lib/push/transport';

interface Open {
  transport: PushTransport;
  /** the sealed credentials it was opened with: another value means new credentials */
  sealed: string;
  lastUsed: number;
}

export interface TransportCache {
  get(key: string, sealed: string, open: () => PushTransport): PushTransport;
  close(): Promise<void>;
}

export function createTransportCache(idleMs = 60_000): TransportCache {
  const open = new Map<string, Open>();
  const sweep = setInterval(() => {
    const now = Date.now();
    for (const [key, o] of open) {
      if (now - o.lastUsed > idleMs) {
        open.delete(key);
        void o.transport.close().catch(() => undefined);
      }
    }
  }, Math.min(idleMs, 30_000));
  sweep.unref();
  return {
    get(key, sealed, create) {
      const found = open.get(key);
      if (found && found.sealed === sealed) {
        found.lastUsed = Date.now();
        return found.transport;
      }
      if (found) void found.transport.close().catch(() => undefined);
      const transport = create();
      open.set(key, { transport, sealed, lastUsed: Date.now() });
      return transport;
    },
    async close() {
      clearInterval(sweep);
      const all = [...open.values()];
      open.clear();
      await Promise.all(all.map((o) => o.transport.close().catch(() => undefined)));
    },
  };
}

// A loopback TCP proxy in front of a dependency (PostgreSQL, Redis) that a test can cut:
// start an API whose DATABASE_URL or REDIS_URL goes through it (viaProxy), then `down()`
// drops every connection and refuses new ones, as a dependency that has died does,
// without touching the shared Postgres or Redis; `up()` serves again.
import net from 'node:net';

export interface TcpProxy {
  port: number;
  down(): void;
  up(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  let isUp = true;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    if (!isUp) return client.destroy();
    const upstream = net.connect(target.port, target.host);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const proxy: TcpProxy = {
    port: (server.address() as net.AddressInfo).port,
    down() {
      isUp = false;
      for (const s of sockets) s.destroy();
    },
    up() {
      isUp = true;
    },
    async close() {
      proxy.down();
      await new Promise((r) => server.close(r));
    },
  };
  return proxy;
}

/** The same URL, with host and port replaced by the proxy's. */
export function viaProxy(url: string, proxy: TcpProxy): string {
  const u = new URL(url);
  u.hostname = '127.0.0.1';
  u.port = String(proxy.port);
  return u.toString();
}

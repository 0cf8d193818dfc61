// A loopback TCP forwarder a test can cut: start an API whose DATABASE_URL or REDIS_URL
// goes through it, then `cut()` makes that dependency a dead port (connections dropped,
// new ones refused) without touching the shared Postgres or Redis.
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface TcpProxy {
  port: number;
  cut(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(targetPort, targetHost);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => s.destroy());
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  let closed = false;
  const cut = async () => {
    if (closed) return;
    closed = true;
    const done = new Promise((r) => server.close(r));
    for (const s of sockets) s.destroy();
    await done;
  };
  return { port, cut, close: cut };
}

// The bench's webhook receiver: one keep-alive HTTP server on 127.0.0.1 that records each
// request's arrival (when its body is complete) and answers 200 after a fixed 5 ms, like
// a receiver that does a little work. Paths:
//   /a, /b   the two subscribed endpoints: recorded per `webhook-id` (arrival, the
//            envelope's data.playerId to match it to the API call, duplicates) and the
//            x-service-signature checked with that endpoint's secret
//   /peer    the bare signed-POST peer: counted only
// Arrival times are performance.now() of this (the bench's) process, the same clock the
// event source uses for the API calls' start.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyServiceSignature } from '../../lib/webhooks/signing';

export interface Arrival {
  /** performance.now() when the body was complete */
  at: number;
  path: string;
  playerId: string | undefined;
  event: string | undefined;
}

export interface Receiver {
  url: string;
  /** unique webhook deliveries by webhook-id */
  deliveries: Map<string, Arrival>;
  /** arrivals by the envelope's data.playerId (the API call's key) */
  byPlayer: Map<string, Arrival[]>;
  counters: { requests: number; duplicates: number; badSignature: number; unknownPath: number; peer: number; peerBadSignature: number };
  setSecret(path: string, secret: string): void;
  stop(): Promise<void>;
}

export async function startReceiver(port: number, delayMs = 5): Promise<Receiver> {
  const deliveries = new Map<string, Arrival>();
  const byPlayer = new Map<string, Arrival[]>();
  const secrets = new Map<string, string>();
  const counters = { requests: 0, duplicates: 0, badSignature: 0, unknownPath: 0, peer: 0, peerBadSignature: 0 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      counters.requests++;
      const path = req.url ?? '';
      const raw = Buffer.concat(chunks);
      const secret = secrets.get(path);
      const signature = req.headers['x-service-signature'] as string | undefined;
      if (path === '/peer') {
        counters.peer++;
        if (secret && !verifyServiceSignature(secret, raw, signature)) counters.peerBadSignature++;
      } else if (path === '/a' || path === '/b') {
        if (secret && !verifyServiceSignature(secret, raw, signature)) counters.badSignature++;
        const id = String(req.headers['webhook-id'] ?? '');
        if (deliveries.has(id)) counters.duplicates++;
        else {
          let envelope: any;
          try {
            envelope = JSON.parse(raw.toString('utf8'));
          } catch {
            envelope = undefined;
          }
          const a: Arrival = { at, path, playerId: envelope?.data?.playerId, event: envelope?.event };
          deliveries.set(id, a);
          if (a.playerId) {
            const list = byPlayer.get(a.playerId);
            if (list) list.push(a);
            else byPlayer.set(a.playerId, [a]);
          }
        }
      } else counters.unknownPath++;
      setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'), delayMs);
    });
  });
  server.keepAliveTimeout = 65_000; // longer than any pause in the run: the senders' sockets stay open
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}`,
    deliveries,
    byPlayer,
    counters,
    setSecret: (path, secret) => void secrets.set(path, secret),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

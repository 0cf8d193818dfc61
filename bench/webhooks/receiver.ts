// The bench's webhook receiver: one keep-alive HTTP server on 127.0.0.1 that records each
// request's arrival (when its body is complete) and answers 200 after a fixed 5 ms, like
// a receiver that does a little work. Paths:
//   /a, /b   the two /v1 endpoints, /pa, /pb the two platform ones (any path given a
//            secret is an endpoint): recorded per delivery id (`webhook-id`, or the
//            envelope's `id` where the API sends no Standard Webhooks headers), with the
//            arrival, the key that matches it to the API call (keyOf) and the event's own
//            time; duplicates counted; the x-service-signature checked with the secret
//   /peer    the bare signed-POST peer: counted only
// Arrival times are performance.now() of this (the bench's) process, the same clock the
// event source uses for the API calls' start.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyServiceSignature } from '../../lib/webhooks/signing';

export interface Arrival {
  /** performance.now() when the body was complete */
  at: number;
  /** Date.now() at the same moment: compared with the event's own time (another process's clock, the same machine's) */
  atEpoch: number;
  path: string;
  /** what matches it to the API call that made its event (keyOf) */
  key: string | undefined;
  event: string | undefined;
  /** the event's time in the envelope (/v1 `timestamp`, platform `created_at`), ms since the epoch */
  occurredAt: number;
}

/**
 * The key of a delivery's event, which the event source knows from its call:
 * /v1 `player.created`: the new player's id; a platform ticket event: ticket id, event
 * type and the ticket's `updated_at` (the instant of the change; the API's answer has it).
 */
export function keyOf(envelope: any): string | undefined {
  if (typeof envelope?.type === 'string') return platformKey(envelope.data?.id, envelope.type, envelope.data?.updated_at);
  return envelope?.data?.playerId;
}

export const platformKey = (ticketId: string, type: string, updatedAt: string) => `${ticketId}|${type}|${updatedAt}`;

export interface Receiver {
  url: string;
  /** unique webhook deliveries by webhook-id */
  deliveries: Map<string, Arrival>;
  /** arrivals by their key (keyOf: the API call's) */
  byKey: Map<string, Arrival[]>;
  counters: { requests: number; duplicates: number; badSignature: number; unknownPath: number; peer: number; peerBadSignature: number };
  setSecret(path: string, secret: string): void;
  stop(): Promise<void>;
}

export async function startReceiver(port: number, delayMs = 5): Promise<Receiver> {
  const deliveries = new Map<string, Arrival>();
  const byKey = new Map<string, Arrival[]>();
  const secrets = new Map<string, string>();
  const counters = { requests: 0, duplicates: 0, badSignature: 0, unknownPath: 0, peer: 0, peerBadSignature: 0 };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const at = performance.now();
      const atEpoch = Date.now();
      counters.requests++;
      const path = req.url ?? '';
      const raw = Buffer.concat(chunks);
      const secret = secrets.get(path);
      const signature = req.headers['x-service-signature'] as string | undefined;
      if (path === '/peer') {
        counters.peer++;
        if (secret && !verifyServiceSignature(secret, raw, signature)) counters.peerBadSignature++;
      } else if (secret) {
        if (!verifyServiceSignature(secret, raw, signature)) counters.badSignature++;
        let envelope: any;
        try {
          envelope = JSON.parse(raw.toString('utf8'));
        } catch {
          envelope = undefined;
        }
        const id = String(req.headers['webhook-id'] ?? envelope?.id ?? '');
        if (deliveries.has(id)) counters.duplicates++;
        else {
          const occurredAt = Date.parse(envelope?.timestamp ?? envelope?.created_at ?? '');
          const a: Arrival = { at, atEpoch, path, key: keyOf(envelope), event: envelope?.event ?? envelope?.type, occurredAt };
          deliveries.set(id, a);
          if (a.key) {
            const list = byKey.get(a.key);
            if (list) list.push(a);
            else byKey.set(a.key, [a]);
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
    byKey,
    counters,
    setSecret: (path, secret) => void secrets.set(path, secret),
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

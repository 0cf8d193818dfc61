// The one webhook receiver of the tests: a real HTTP server on 127.0.0.1 that records
// every request and answers as the test scripts it (a status per request, a stall, a
// late answer), and, given the endpoint's secret, verifies both signatures the way the
// docs tell studios to.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { verifyServiceSignature, type SignatureScheme } from '../../lib/webhooks/signing';

export interface Delivered {
  /** the `webhook-id` header (the envelope's `id` for an API that sends no Standard Webhooks headers) */
  id: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
  /** the parsed body (undefined when it is not JSON) */
  envelope: any;
  /** both signatures verified (set when the receiver has a secret) */
  verified?: boolean;
  /** Date.now() when the request's body had arrived */
  receivedAt: number;
  /** Date.now() when it was answered */
  answeredAt?: number;
}

/** A status code, or 'stall' to hold the connection open and never answer. */
export type Answer = number | 'stall';

export interface ReceiverOptions {
  /**
   * The endpoint's secret (read at each request): a request whose `x-service-signature`
   * or Standard Webhooks headers do not verify is answered 401 and goes to `rejected`.
   */
  secret?: () => string;
  /** the answer to the `n`-th request (from 1) of a delivery id; 200 when not given */
  answer?: (deliveryId: string, n: number) => Answer | Promise<Answer>;
  /** answer only this many ms later: a receiver that takes its time, so a fault finds deliveries in flight */
  answerAfterMs?: () => number;
  /** the signatures to verify (default both): the endpoint's API's schemes (domain/webhooks/apis.ts) */
  schemes?: readonly SignatureScheme[];
}

/** Whether a delivery's signatures of `schemes` (default both) verify with `secret`, as a studio's receiver checks them. */
export function verifies(
  secret: string,
  raw: string,
  headers: http.IncomingHttpHeaders,
  schemes: readonly SignatureScheme[] = ['service-signature', 'standard-webhooks'],
): boolean {
  if (schemes.includes('service-signature') && !verifyServiceSignature(secret, raw, headers['x-service-signature'] as string)) return false;
  if (!schemes.includes('standard-webhooks')) return true;
  try {
    new Webhook(secret).verify(raw, headers as Record<string, string>);
    return true;
  } catch {
    return false;
  }
}

function safeJson(raw: string): any {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

export async function startReceiver(o: ReceiverOptions = {}) {
  /** every request, in arrival order */
  const requests: Delivered[] = [];
  /** requests that verified (all of them when the receiver has no secret) */
  const accepted: Delivered[] = [];
  /** requests whose signatures did not verify */
  const rejected: Delivered[] = [];
  /** requests read but not answered yet */
  const inFlight = new Set<Delivered>();
  const byId = new Map<string, Delivered[]>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const envelope = safeJson(raw);
      const id = String(req.headers['webhook-id'] ?? (o.schemes && !o.schemes.includes('standard-webhooks') ? envelope?.id : undefined));
      const d: Delivered = { id, headers: req.headers, raw, envelope, receivedAt: Date.now() };
      requests.push(d);
      const ofId = byId.get(d.id) ?? [];
      ofId.push(d);
      byId.set(d.id, ofId);
      if (o.secret) d.verified = verifies(o.secret(), raw, req.headers, o.schemes ?? ['service-signature', 'standard-webhooks']);
      (d.verified === false ? rejected : accepted).push(d);
      if (d.verified === false) return res.writeHead(401).end();
      const answer = o.answer ? await o.answer(d.id, ofId.length) : 200;
      if (answer === 'stall') return;
      inFlight.add(d);
      const send = () => {
        inFlight.delete(d);
        d.answeredAt = Date.now();
        res.writeHead(answer).end(); // after a worker's kill -9, to a dead peer: nobody reads it
      };
      if (o.answerAfterMs) setTimeout(send, o.answerAfterMs());
      else send();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    requests,
    accepted,
    rejected,
    inFlight,
    /** the requests of one delivery id, in arrival order */
    received: (id: string): Delivered[] => byId.get(id) ?? [],
    /** the requests grouped by delivery id, in arrival order */
    byId: (): ReadonlyMap<string, Delivered[]> => byId,
    /** how many requests have been answered */
    answered: () => requests.filter((r) => r.answeredAt).length,
    /** deliveries of `event` accepted so far (`/v1`'s envelope names it `event`, the platform's `type`) */
    of: (event: string) => accepted.filter((d) => (d.envelope?.event ?? d.envelope?.type) === event),
    stop: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(r));
    },
  };
}
export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

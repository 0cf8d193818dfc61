import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { Db } from '../../db/db';
import { masterKey } from '../../lib/crypto/master-key';
import { encryptSecret } from '../../lib/crypto/secret-box';
import { newEndpointSecret, verifyServiceSignature } from '../../lib/webhooks/signing';
import { loadConfig } from '../../lib/config';
import { newId } from '../../lib/ids';

export interface Delivered {
  id: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
  envelope: any;
  /** Date.now() when the request's body had arrived */
  receivedAt: number;
}

/**
 * A receiver on 127.0.0.1 that does what the docs tell studios to do: verify
 * `x-service-signature` over the raw bytes AND the Standard Webhooks headers with the
 * off-the-shelf library, answer 401 to anything that fails either, 200 otherwise
 * (after `answerAfterMs()` ms when given: a receiver that takes its time, so that a fault
 * finds deliveries in flight).
 */
export async function startVerifyingReceiver(secret: () => string, opts: { answerAfterMs?: () => number } = {}) {
  const accepted: Delivered[] = [];
  const rejected: Delivered[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const d: Delivered = { id: String(req.headers['webhook-id']), headers: req.headers, raw, envelope: safeJson(raw), receivedAt: Date.now() };
      let ok = verifyServiceSignature(secret(), raw, req.headers['x-service-signature'] as string);
      try {
        new Webhook(secret()).verify(raw, req.headers as Record<string, string>);
      } catch {
        ok = false;
      }
      (ok ? accepted : rejected).push(d);
      const answer = () => res.writeHead(ok ? 200 : 401).end();
      if (opts.answerAfterMs) setTimeout(answer, opts.answerAfterMs());
      else answer();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    port,
    accepted,
    rejected,
    /** deliveries of `event` accepted so far */
    of: (event: string) => accepted.filter((d) => d.envelope?.event === event),
    stop: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(r));
    },
  };
}

function safeJson(raw: string): any {
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

/** An endpoint row as POST /v1/webhooks stores it (encrypted secret), for tests that need one fast. */
export async function insertEndpoint(db: Db, o: { workspaceId: string; url: string; events: string[]; active?: boolean }) {
  const id = newId('wh');
  const secret = newEndpointSecret();
  await db.query(
    `INSERT INTO webhook_endpoints (id, workspace_id, url, events, active, secret_box) VALUES ($1, $2, $3, $4, $5, $6)`,
    [id, o.workspaceId, o.url, o.events, o.active ?? true, encryptSecret(masterKey(loadConfig()), secret, id)],
  );
  return { id, secret };
}

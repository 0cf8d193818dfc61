import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Db } from '../../db/db';
import { encryptSecret } from '../../lib/crypto/secret-box';
import { newEndpointSecret } from '../../lib/webhooks/signing';
import { newId } from '../../lib/ids';

export interface ReceivedRequest {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A real HTTP receiver on 127.0.0.1 whose answers are scripted per delivery id
 * (`webhook-id` header): a status code, or 'stall' to never answer.
 */
export async function startReceiver(script: (deliveryId: string, n: number) => number | 'stall' | Promise<number | 'stall'>) {
  const received = new Map<string, ReceivedRequest[]>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      const id = String(req.headers['webhook-id']);
      const list = received.get(id) ?? [];
      list.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      received.set(id, list);
      const answer = await script(id, list.length);
      if (answer === 'stall') return; // hold the connection open, never answer
      res.writeHead(answer).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received: (id: string) => received.get(id) ?? [],
    stop: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(r));
    },
  };
}

/** An endpoint row with an encrypted secret, and one pending delivery to it. */
export async function createDelivery(db: Db, key: Buffer, workspaceId: string, url: string) {
  const endpointId = newId('wh');
  const secret = newEndpointSecret();
  await db.query(
    `INSERT INTO webhook_endpoints (id, workspace_id, url, events, secret_box) VALUES ($1, $2, $3, $4, $5)`,
    [endpointId, workspaceId, url, ['ticket.created'], encryptSecret(key, secret, endpointId)],
  );
  const deliveryId = newId('evt');
  const body = JSON.stringify({ id: deliveryId, event: 'ticket.created', workspaceId, timestamp: new Date().toISOString(), data: { id: 'tkt_x' } });
  await db.query(
    `INSERT INTO webhook_deliveries (id, endpoint_id, event_id, event_type, workspace_id, body) VALUES ($1, $2, $3, 'ticket.created', $4, $5)`,
    [deliveryId, endpointId, newId('evt'), workspaceId, body],
  );
  return { endpointId, deliveryId, secret, body };
}

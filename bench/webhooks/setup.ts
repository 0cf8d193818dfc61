// What bench:webhooks does around the measured phases: an access token, the two endpoints
// registered through the API, the platform phase's tenant and two platform endpoints, and
// the signed-POST peer in its own process.
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectDb } from '../../db/db';
import { createPlatformTenant, type PlatformTenant } from '../../domain/platform/create-tenant';
import { registerEndpoint } from '../../domain/webhooks/register-endpoint';
import { masterKey } from '../../lib/crypto/master-key';
import { newEndpointSecret } from '../../lib/webhooks/signing';
import { startChild, type Child } from '../lib/procs';
import { ROOT, TSX } from '../lib/stack';
import type { PostPeerResult } from './post-peer';
import type { Receiver } from './receiver';

async function json(res: Response): Promise<any> {
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

export async function accessToken(api: string, key: string, organizationId: string): Promise<string> {
  const res = await fetch(`${api}/v1/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apiKey: key, organizationId }),
    signal: AbortSignal.timeout(10_000),
  });
  const body = await json(res);
  if (res.status !== 200) throw new Error(`token exchange failed: ${res.status} ${JSON.stringify(body)}`);
  return body.accessToken;
}

/** Two endpoints on the receiver (`/a`, `/b`), subscribed to player.created through POST /v1/webhooks. */
export async function registerEndpoints(api: string, token: string, workspaceId: string, r: Receiver): Promise<void> {
  for (const path of ['/a', '/b']) {
    const res = await fetch(`${api}/v1/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ workspaceId, url: `${r.url}${path}`, events: ['player.created'], description: `bench receiver ${path}` }),
      signal: AbortSignal.timeout(10_000),
    });
    const body = await json(res);
    if (res.status !== 201) throw new Error(`POST /v1/webhooks: ${res.status} ${JSON.stringify(body)}`);
    r.setSecret(path, body.secret);
  }
}

/** The platform ticket events the platform endpoints take: every one the phase's changes record. */
export const PLATFORM_PHASE_EVENTS = ['ticket.created', 'ticket.updated', 'ticket.resolved', 'ticket.closed'];

/**
 * The platform phase's tenant (domain/platform/create-tenant.ts, as `npm run admin --
 * create-tenant` makes one; its admin's service_test_ token drives the changes) and two
 * platform endpoints on the receiver (`/pa`, `/pb`), registered with the webhook domain's
 * command with api 'platform' (what POST /platform/v1/webhooks runs, without the request
 * around it). The secret is sealed with the same master key the worker
 * opens it with (WEBHOOK_SECRET_KEY of .data/env, which the children inherit).
 */
export async function platformTenantWithEndpoints(databaseUrl: string, r: Receiver): Promise<PlatformTenant> {
  const db = await connectDb(databaseUrl, 2);
  try {
    const tenant = await createPlatformTenant(db, { name: 'Bench webhooks platform' });
    for (const path of ['/pa', '/pb']) {
      const { secret } = await registerEndpoint(
        db,
        { secretKey: masterKey({ webhookSecretKey: process.env.WEBHOOK_SECRET_KEY }), urlPolicy: { allowLoopback: true } },
        { api: 'platform', environment: 'test', workspaceId: tenant.workspaceId, url: `${r.url}${path}`, events: PLATFORM_PHASE_EVENTS, description: `bench receiver ${path}`, active: true, maxPerWorkspace: 20 },
      );
      r.setSecret(path, secret);
    }
    return tenant;
  } finally {
    await db.close();
  }
}

/** A secret for the peer's signatures: its own, registered with the receiver for /peer. */
export function endpointSecret(r: Receiver): string {
  const s = newEndpointSecret();
  r.setSecret('/peer', s);
  return s;
}

/** Peer 1 in its own process (as the worker is): N signed POSTs, closed loop. */
export async function runPostPeer(
  r: Receiver,
  secret: string,
  cfg: { count: number; concurrency: number; maxSec: number },
  logDir: string,
  onStart: (c: Child) => void,
): Promise<PostPeerResult> {
  const out = join(tmpdir(), `bench-webhooks-post-peer-${process.pid}.json`);
  rmSync(out, { force: true });
  const env = {
    ...process.env,
    PEER_URL: `${r.url}/peer`,
    PEER_SECRET: secret,
    PEER_OUT: out,
    PEER_COUNT: String(cfg.count),
    PEER_CONCURRENCY: String(cfg.concurrency),
    PEER_MAX_SEC: String(cfg.maxSec),
    NODE_ENV: 'production',
  };
  const c = startChild('wh-peer-post', TSX, ['bench/webhooks/post-peer.ts'], { cwd: ROOT, env, logDir });
  onStart(c);
  const timer = setTimeout(() => c.proc.pid && process.kill(-c.proc.pid, 'SIGKILL'), (cfg.maxSec + 40) * 1000);
  await c.done;
  clearTimeout(timer);
  if (c.exitCode !== 0) throw new Error(`post peer exited ${c.exitCode}; see ${c.logFile}`);
  const result = JSON.parse(readFileSync(out, 'utf8')) as PostPeerResult;
  rmSync(out, { force: true });
  return result;
}

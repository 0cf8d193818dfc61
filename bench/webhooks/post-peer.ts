// Peer 1: the bare signed POST, with nothing of the delivery pipeline around it (no
// outbox, no Temporal, no database). The same work an attempt does on the wire: a
// player.created envelope of the real size, `deliveryHeaders` (both signatures, computed
// per request as the activity does per attempt) and `postOnce` through the same
// SSRF-safe keep-alive agent the `webhooks` worker uses, to the same receiver. A closed
// loop of `concurrency` senders for `count` requests (or `maxSec`, whichever first),
// after an unrecorded warm-up. Runs as its own process, as the worker does.
//
//   PEER_URL=http://127.0.0.1:3921/peer PEER_SECRET=whsec_… PEER_OUT=result.json \
//     tsx bench/webhooks/post-peer.ts
import { writeFileSync } from 'node:fs';
import { envelope } from '../../domain/webhooks/envelope';
import { postOnce } from '../../activities/webhooks/post';
import { createSafeHttpAgent } from '../../lib/webhooks/safe-agent';
import { deliveryHeaders } from '../../lib/webhooks/signing';
import { classifyOutcome } from '../../domain/webhooks/retry.rules';
import { percentile } from '../lib/load';

export interface PostPeerResult {
  requests: number;
  ok: number;
  failed: number;
  seconds: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  concurrency: number;
  bodyBytes: number;
  /** this sender process's own CPU during the measured loop, in cores */
  senderCores: number;
  firstErrors: Record<string, number>;
}

async function main() {
  const url = process.env.PEER_URL!;
  const secret = process.env.PEER_SECRET!;
  const out = process.env.PEER_OUT!;
  const count = Number(process.env.PEER_COUNT ?? 20_000);
  const warmup = Number(process.env.PEER_WARMUP ?? 1_000);
  const concurrency = Number(process.env.PEER_CONCURRENCY ?? 32);
  const maxSec = Number(process.env.PEER_MAX_SEC ?? 30);
  if (!url || !secret || !out) throw new Error('PEER_URL, PEER_SECRET and PEER_OUT are required');
  const agent = createSafeHttpAgent({ allowLoopback: true, keepAlive: true });
  const data = {
    id: 'kpl_01jd3k8xq7m2c4v9b0n6t5r8ya',
    workspaceId: 'ws_01jd3k8xq7m2c4v9b0n6t5r8yb',
    playerId: 'bench-peer-000000',
    displayName: 'Bench player 0',
    email: null,
    metadata: {},
    ticketCount: 0,
    firstSeenAt: new Date().toISOString(),
    lastSeenAt: new Date().toISOString(),
  };
  let n = 0;
  const one = async (): Promise<{ ok: boolean; detail?: string }> => {
    const id = `evt_peer${String(n++).padStart(20, '0')}`;
    const body = envelope(id, { type: 'player.created', workspaceId: data.workspaceId, occurredAt: new Date(), data });
    const headers = deliveryHeaders({ id, timestampSeconds: Math.floor(Date.now() / 1000), body, secret });
    const outcome = classifyOutcome(await postOnce(url, body, headers, agent, 30_000));
    return outcome.ok ? { ok: true } : { ok: false, detail: outcome.detail };
  };
  const loop = async (total: number, record: boolean, deadline: number) => {
    const lat: number[] = [];
    const firstErrors: Record<string, number> = {};
    let issued = 0;
    let ok = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (issued < total && performance.now() < deadline) {
          issued++;
          const t = performance.now();
          const r = await one();
          if (!record) continue;
          lat.push(performance.now() - t);
          if (r.ok) ok++;
          else firstErrors[r.detail!] = (firstErrors[r.detail!] ?? 0) + 1;
        }
      }),
    );
    return { lat, ok, firstErrors };
  };
  await loop(warmup, false, performance.now() + 10_000);
  const started = performance.now();
  const cpu0 = process.cpuUsage();
  const { lat, ok, firstErrors } = await loop(count, true, started + maxSec * 1000);
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpu0);
  lat.sort((a, b) => a - b);
  const bodyBytes = Buffer.byteLength(envelope('evt_x', { type: 'player.created', workspaceId: data.workspaceId, occurredAt: new Date(), data }));
  const result: PostPeerResult = {
    requests: lat.length,
    ok,
    failed: lat.length - ok,
    seconds,
    rps: ok / seconds,
    p50: percentile(lat, 50),
    p95: percentile(lat, 95),
    p99: percentile(lat, 99),
    max: lat[lat.length - 1],
    concurrency,
    bodyBytes,
    senderCores: (cpu.user + cpu.system) / 1e6 / seconds,
    firstErrors,
  };
  writeFileSync(out, JSON.stringify(result));
  agent.destroy();
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}

// The self-contained stack of one `npm run bench:push` run, beside the other benchmarks'
// (never instead of them): its own ports, Temporal dev server (SQLite in a temp dir),
// database `support_bench_push` (recreated, migrated), Redis logical database 4, and as
// child processes the API, the `push` worker(s) (one unless BENCH_PUSH_WORKERS says
// more), the local push sink and the bare register peer. Only 127.0.0.1.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appEnv, startScript, type StackSpec, type Urls } from '../lib/stack';
import { httpOk, portOpen, waitFor, type Child } from '../lib/procs';

export const PUSH_PORTS = { temporal: 7290, temporalUi: 7291, temporalMetrics: 7292, api: 3930, peer: 3931, sink: 3932 };
/** bench/lib/stack.ts does the rest (ports check, database, Temporal) for this spec. */
export const PUSH_STACK: StackSpec = { label: 'bench:push', prefix: 'push-', ports: PUSH_PORTS, db: 'support_bench_push', redisDb: 4 };

/** The limit groups of the push API lifted (contracts.md: one documented override for benchmarks). */
const NO_LIMITS = ['push-auth-ip', 'push-token', 'push-anonymous-ip', 'push-devices-register', 'push-event-fire', 'push-notifications-send']
  .map((g) => `${g}=100000000`)
  .join(',');

export interface PushApps {
  api: Child;
  /** the push worker processes (npm run worker -- push, each) */
  workers: Child[];
  sink: Child;
  peer: Child;
  sinkDir: string;
  sinkUrl: string;
}

/**
 * The API, `workers` push workers, the sink and the register peer. `profileDir`
 * (BENCH_PUSH_PROFILE_DIR): each of them writes a V8 CPU profile there when it stops.
 */
export function startApps(u: Urls, logDir: string, profileDir?: string, workers = 1): PushApps {
  const sinkUrl = `http://127.0.0.1:${PUSH_PORTS.sink}`;
  const sinkDir = mkdtempSync(join(tmpdir(), 'support-bench-push-sink-'));
  const env = { ...appEnv(u), RATE_LIMITS: NO_LIMITS, FCM_ENDPOINT: sinkUrl, APNS_ENDPOINT: sinkUrl };
  const opts = { env, logDir, profileDir };
  return {
    sinkDir,
    sinkUrl,
    sink: startScript('push-sink', ['scripts/push-sink.ts'], { ...opts, env: { ...env, PUSH_SINK_PORT: String(PUSH_PORTS.sink), PUSH_SINK_DIR: sinkDir } }),
    api: startScript('push-api', ['api/server.ts'], { ...opts, env: { ...env, PORT: String(PUSH_PORTS.api), HOST: '127.0.0.1' } }),
    // LOG_LEVEL=info only for the 'worker started' line the readiness wait looks for
    workers: Array.from({ length: workers }, (_, i) =>
      startScript(`push-worker${i ? `-${i + 1}` : ''}`, ['workers/main.ts', 'push'], { ...opts, env: { ...env, LOG_LEVEL: 'info' } }),
    ),
    peer: startScript('push-register-peer', ['bench/push/register-peer.ts'], { ...opts, env: { ...env, PORT: String(PUSH_PORTS.peer) } }),
  };
}

export async function waitForApps(a: PushApps): Promise<void> {
  const logged = (c: Child, text: string) => async () => readFileSync(c.logFile, 'utf8').includes(text);
  await Promise.all([
    waitFor('API /api/v1/health', () => httpOk(`http://127.0.0.1:${PUSH_PORTS.api}/api/v1/health`), 90_000, a.api),
    ...a.workers.map((w) => waitFor(w.name, logged(w, 'worker started'), 120_000, w)),
    waitFor('push sink', () => portOpen(PUSH_PORTS.sink), 60_000, a.sink),
    waitFor('register peer', () => portOpen(PUSH_PORTS.peer), 60_000, a.peer),
  ]);
}

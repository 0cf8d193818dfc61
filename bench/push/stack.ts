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

/** The limit groups of the push API lifted (docs/push.md: one documented override for benchmarks). */
const NO_LIMITS = ['push-auth-ip', 'push-token', 'push-anonymous-ip', 'push-devices-register', 'push-event-fire', 'push-notifications-send']
  .map((g) => `${g}=100000000`)
  .join(',');

export interface PushApps {
  /** the stack these apps run in (its ports) */
  spec: StackSpec;
  api: Child;
  /** the push worker processes (npm run worker -- push, each), addWorker's included */
  workers: Child[];
  sink: Child;
  peer: Child;
  sinkDir: string;
  sinkUrl: string;
  /** what starts one more push worker of this stack (bench:campaign adds a second one between phases) */
  addWorker(): Child;
}

/**
 * The API, `workers` push workers, the sink and the register peer, on `spec`'s ports
 * (bench:push's own unless another bench passes its stack). `profileDir`
 * (BENCH_PUSH_PROFILE_DIR): each of them writes a V8 CPU profile there when it stops.
 */
export function startApps(u: Urls, logDir: string, profileDir?: string, workers = 1, spec: StackSpec = PUSH_STACK): PushApps {
  const ports = spec.ports;
  const sinkUrl = `http://127.0.0.1:${ports.sink}`;
  const sinkDir = mkdtempSync(join(tmpdir(), `support-bench-${spec.prefix}sink-`));
  const env = { ...appEnv(u), RATE_LIMITS: NO_LIMITS, FCM_ENDPOINT: sinkUrl, APNS_ENDPOINT: sinkUrl };
  const opts = { env, logDir, profileDir };
  const started: Child[] = [];
  // LOG_LEVEL=info only for the 'worker started' line the readiness wait looks for
  const addWorker = () => {
    const n = started.length;
    const w = startScript(`${spec.prefix}worker${n ? `-${n + 1}` : ''}`, ['workers/main.ts', 'push'], { ...opts, env: { ...env, LOG_LEVEL: 'info' } });
    started.push(w);
    return w;
  };
  return {
    spec,
    sinkDir,
    sinkUrl,
    addWorker,
    sink: startScript(`${spec.prefix}sink`, ['scripts/push-sink.ts'], { ...opts, env: { ...env, PUSH_SINK_PORT: String(ports.sink), PUSH_SINK_DIR: sinkDir } }),
    api: startScript(`${spec.prefix}api`, ['api/server.ts'], { ...opts, env: { ...env, PORT: String(ports.api), HOST: '127.0.0.1' } }),
    // the same array addWorker appends to: `workers` lists every worker started so far
    workers: (Array.from({ length: workers }, () => addWorker()), started),
    peer: startScript(`${spec.prefix}register-peer`, ['bench/push/register-peer.ts'], { ...opts, env: { ...env, PORT: String(ports.peer) } }),
  };
}

/** A push worker's readiness: its 'worker started' log line. */
export function waitForWorker(w: Child): Promise<void> {
  return waitFor(w.name, async () => readFileSync(w.logFile, 'utf8').includes('worker started'), 120_000, w);
}

export async function waitForApps(a: PushApps): Promise<void> {
  const ports = a.spec.ports;
  await Promise.all([
    waitFor('API /api/v1/health', () => httpOk(`http://127.0.0.1:${ports.api}/api/v1/health`), 90_000, a.api),
    ...a.workers.map(waitForWorker),
    waitFor('push sink', () => portOpen(ports.sink), 60_000, a.sink),
    waitFor('register peer', () => portOpen(ports.peer), 60_000, a.peer),
  ]);
}

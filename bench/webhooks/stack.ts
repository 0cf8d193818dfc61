// The self-contained stack of one `npm run bench:webhooks` run, beside (never instead
// of) `npm run bench`'s: its own ports, its own Temporal dev server (SQLite in a temp
// dir, the same pragmas as `npm start`), its own database `support_bench_webhooks`
// (recreated, migrated), Redis logical database 3, and as real child processes the API,
// one `webhooks` worker (which runs the outbox dispatcher), the Temporal peer's worker
// and, when the platform phase runs, one `platform` worker (the platform ticket
// workflows, whose steps record the platform events). Only 127.0.0.1.
import { appEnv, assertPortsFree as portsFree, prepareDatabase as recreateDatabase, ROOT, stackUrls, startTemporal as startStackTemporal, TSX, waitForTemporal as waitForStackTemporal, type StackSpec, type Urls } from '../lib/stack';
import { httpOk, startChild, waitFor, type Child } from '../lib/procs';

export const WH_PORTS = { temporal: 7280, temporalUi: 7281, temporalMetrics: 7282, api: 3920, receiver: 3921 };
export const WH_DB = 'support_bench_webhooks';
/** bench/lib/stack.ts does the ports check, the database and Temporal for this spec. */
export const WH_STACK: StackSpec = { label: 'bench:webhooks', prefix: 'wh-', ports: WH_PORTS, db: WH_DB, redisDb: 3 };

export const whUrls = (): Urls => stackUrls(WH_STACK);
export const assertPortsFree = () => portsFree(WH_STACK);
/** Drops and recreates support_bench_webhooks, then migrates: every run starts empty. */
export const prepareDatabase = (u: Urls, logDir: string) => recreateDatabase(u, logDir, WH_STACK);
// what-if experiments only, e.g. BENCH_WEBHOOK_TEMPORAL_ARGS='--dynamic-config-value matching.numTaskqueueReadPartitions=1'
export const startTemporal = (logDir: string) =>
  startStackTemporal(logDir, WH_STACK, (process.env.BENCH_WEBHOOK_TEMPORAL_ARGS ?? '').split(/\s+/).filter(Boolean));
export const waitForTemporal = (child: Child) => waitForStackTemporal(child, WH_STACK);

export interface WhApps {
  api: Child;
  /** one `webhooks` worker process, or BENCH_WEBHOOK_WORKERS of them (each with its dispatcher) */
  workers: Child[];
  peerWorker: Child;
  /** `workers/main.ts platform`, for the platform phase's ticket changes (absent when it does not run) */
  platformWorker?: Child;
}

/** The environment of the API and the worker: the bench's database, Redis db, Temporal; loopback receivers allowed. */
export function whEnv(u: Urls): NodeJS.ProcessEnv {
  return { ...appEnv(u), WEBHOOK_ALLOW_LOOPBACK: '1' };
}

/** BENCH_WEBHOOK_WORKERS: how many `webhooks` worker processes (default 1, as `npm start` runs) */
export function workerCount(): number {
  return Math.max(1, Math.floor(Number(process.env.BENCH_WEBHOOK_WORKERS) || 1));
}

export function startApps(u: Urls, logDir: string, opts0: { platform?: boolean } = {}): WhApps {
  const env = whEnv(u);
  const opts = { cwd: ROOT, env, logDir };
  // LOG_LEVEL=info only for the 'worker started' line the readiness wait looks for.
  // BENCH_WEBHOOK_PROFILE_DIR: a V8 CPU profile of each worker process (main thread and
  // workflow threads), written there when the worker stops.
  const startWorker = (name: string, script: string[]) => {
    const workerOpts = { ...opts, env: { ...env, LOG_LEVEL: 'info' } };
    const prof = process.env.BENCH_WEBHOOK_PROFILE_DIR;
    return prof
      ? startChild(name, process.execPath, ['--cpu-prof', `--cpu-prof-dir=${prof}`, '--import', 'tsx', ...script], workerOpts)
      : startChild(name, TSX, script, workerOpts);
  };
  return {
    api: startChild('wh-api', TSX, ['api/server.ts'], { ...opts, env: { ...env, PORT: String(WH_PORTS.api), HOST: '127.0.0.1' } }),
    // BENCH_WEBHOOK_WORKER_OPTIONS: the what-if worker (bench/webhooks/whatif-worker.ts) instead
    workers: Array.from({ length: workerCount() }, (_, i) => {
      const script = process.env.BENCH_WEBHOOK_WORKER_OPTIONS ? ['bench/webhooks/whatif-worker.ts'] : ['workers/main.ts', 'webhooks'];
      return startWorker(`wh-worker-webhooks${i ? `-${i + 1}` : ''}`, script);
    }),
    peerWorker: startChild('wh-peer-temporal-worker', TSX, ['bench/webhooks/temporal-peer.ts', 'worker'], opts),
    platformWorker: opts0.platform ? startWorker('wh-worker-platform', ['workers/main.ts', 'platform']) : undefined,
  };
}

export async function waitForApps(a: WhApps): Promise<void> {
  const { readFileSync } = await import('node:fs');
  const logged = (c: Child, text: string) => async () => readFileSync(c.logFile, 'utf8').includes(text);
  await Promise.all([
    waitFor('API /v1/health', () => httpOk(`http://127.0.0.1:${WH_PORTS.api}/v1/health`), 90_000, a.api),
    ...a.workers.map((w) => waitFor(w.name, logged(w, 'worker started'), 120_000, w)),
    waitFor('Temporal peer worker', logged(a.peerWorker, 'peer worker started'), 120_000, a.peerWorker),
    ...(a.platformWorker ? [waitFor('platform worker', logged(a.platformWorker, 'worker started'), 120_000, a.platformWorker)] : []),
  ]);
}

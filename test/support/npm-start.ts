// `npm start` (scripts/start.ts) as a user runs it, on a database, ports and state folder
// of the test's own, so the suite's workers and data are untouched. Its ports are picked
// free and raced for like any others: a start that loses one (another process bound it
// first) is tried again on fresh ports, and a start that fails for any other reason
// reports npm start's whole output.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { admin } from './throwaway-db';
import { eventually } from './eventually';
import { freePort } from './fault-services';

const ROOT = resolve(__dirname, '..', '..');
const RUNNING_LINE = 'running; Ctrl-C stops everything';
/** what npm start or one of its children says when a port it was given is taken */
const PORT_TAKEN = /already in use|EADDRINUSE|address already in use/i;
const PORT_TRIES = 3;

export interface NpmStart {
  proc: ChildProcess;
  /** everything npm start printed so far */
  output(): string;
  exited: Promise<number | null>;
  env: NodeJS.ProcessEnv;
  state: string;
  apiPort: number;
  databaseUrl: string;
  /** pids npm start reported for `name` (one per (re)start) */
  started(name: string): number[];
  /** SIGKILL if still running, the database dropped, the state folder removed */
  cleanup(): Promise<void>;
}


/** The suite's own stand-ins and Temporal are not npm start's: it starts its own. */
const SUITE_ONLY = ['TEMPORAL_ADDRESS', 'SMTP_URL', 'MAIL_SINK_DIR', 'FCM_ENDPOINT', 'APNS_ENDPOINT', 'PUSH_SINK_DIR'];

/** Starts npm start and resolves once it says it is running (on fresh ports when one was taken). */
export async function startNpmStart(tag: string, timeoutMs = 150_000): Promise<NpmStart> {
  const dbName = `support_${tag}_${process.pid}_${Date.now().toString(36)}`;
  await admin(`CREATE DATABASE ${dbName}`);
  const url = new URL(process.env.DATABASE_URL!);
  url.pathname = `/${dbName}`;
  const failures: string[] = [];
  for (let n = 1; ; n++) {
    const state = mkdtempSync(join(tmpdir(), `${tag}-`));
    const [apiPort, temporalPort, uiPort, mailPort, pushPort] = [await freePort(), await freePort(), await freePort(), await freePort(), await freePort()];
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: url.toString(),
      PORT: String(apiPort),
      HOST: '127.0.0.1',
      TEMPORAL_DEV_PORT: String(temporalPort),
      TEMPORAL_UI_PORT: String(uiPort),
      MAIL_SINK_PORT: String(mailPort),
      PUSH_SINK_PORT: String(pushPort),
      START_STATE_DIR: state,
      DEMO_CREDENTIALS_FILE: join(state, 'demo-credentials.json'),
      NO_COLOR: '1',
      LOG_LEVEL: 'info',
    };
    for (const k of SUITE_ONLY) delete env[k];
    const proc = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    proc.stdout!.on('data', (d) => (out += d));
    proc.stderr!.on('data', (d) => (out += d));
    const exited = new Promise<number | null>((r) => proc.on('exit', (code) => r(code)));
    const started = (name: string) => [...out.matchAll(new RegExp(`\\[start\\]\\s+${name} started \\(pid (\\d+)\\)`, 'g'))].map((m) => Number(m[1]));
    const handle: NpmStart = {
      proc, output: () => out, exited, env, state, apiPort, databaseUrl: url.toString(), started,
      async cleanup() {
        if (proc.exitCode === null && proc.signalCode === null) {
          proc.kill('SIGKILL');
          await exited;
        }
        await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
        rmSync(state, { recursive: true, force: true });
      },
    };
    // a child that could not bind is restarted by the supervisor: a port lost to another
    // process shows as that message, not (at once) as npm start's exit
    await eventually(() => out.includes(RUNNING_LINE) || proc.exitCode !== null || PORT_TAKEN.test(out), { timeoutMs, what: () => `npm start to be running:\n${out}` });
    if (out.includes(RUNNING_LINE) && proc.exitCode === null) return handle;
    const portTaken = PORT_TAKEN.test(out);
    if (proc.exitCode === null) {
      proc.kill('SIGTERM');
      await Promise.race([exited, sleep(20_000, undefined, { ref: false })]);
    }
    await handle.cleanup().catch(() => undefined);
    failures.push(`try ${n}:\n${out}`);
    if (!portTaken || n >= PORT_TRIES) {
      await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => undefined);
      throw new Error(`npm start did not come up (${n} tries):\n${failures.join('\n')}`);
    }
    await admin(`CREATE DATABASE ${dbName}`);
  }
}

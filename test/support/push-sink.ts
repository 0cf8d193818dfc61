// A push sink (scripts/push-sink.ts) on a free loopback port with its own folder, for
// tests that send through the real transports, and readers of what it recorded.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPushSink, type PushSink, type PushSinkOptions } from '../../scripts/push-sink';
import type { SinkRecord } from '../../scripts/push-sink/records';
import type { DemoCredentials } from '../../lib/push/demo-credentials';
import type { PushMessage, PushTransport } from '../../lib/push/transport';

export async function startTestPushSink(opts: Omit<PushSinkOptions, 'dir'>): Promise<PushSink & { cleanup(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'push-sink-'));
  const sink = await startPushSink({ ...opts, dir });
  return Object.assign(sink, {
    async cleanup() {
      await sink.close();
      rmSync(dir, { recursive: true, force: true });
    },
  });
}

/** What a sink kept; without a folder, the one `npm test` runs (PUSH_SINK_DIR, from scripts/test-services.sh). */
export function sinkRecords(dir: string | undefined, service: 'fcm' | 'apns'): SinkRecord[] {
  dir ??= process.env.PUSH_SINK_DIR;
  if (!dir) throw new Error('PUSH_SINK_DIR is not set: run through npm test, or pass the sink folder');
  const file = join(dir, `${service}.jsonl`);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as SinkRecord);
}

/**
 * For a transport test file: a sink trusting `trust`, started before its tests, and
 * `transport(...)` that opens a transport on it (through `open`) and closes it after them.
 */
export function sinkForTransportTests<A extends unknown[]>(trust: DemoCredentials, open: (sinkUrl: string, ...args: A) => PushTransport) {
  let sink: Awaited<ReturnType<typeof startTestPushSink>>;
  const opened: PushTransport[] = [];
  beforeAll(async () => {
    sink = await startTestPushSink({ trust: [trust] });
  });
  afterAll(async () => {
    await Promise.all(opened.map((t) => t.close()));
    await sink.cleanup();
  });
  return {
    sink: () => sink,
    transport: (...args: A): PushTransport => {
      const t = open(sink.url, ...args);
      opened.push(t);
      return t;
    },
  };
}

/** A message factory with the file's own title, body and data; each message gets a new notificationId. */
export const messageWith =
  (defaults: Pick<PushMessage, 'title' | 'body' | 'data'>) =>
  (token: string, extra: Partial<PushMessage> = {}): PushMessage => ({ notificationId: randomUUID(), token, ...defaults, ...extra });

// A push sink (scripts/push-sink.ts) on a free loopback port with its own folder, for
// tests that send through the real transports, and readers of what it recorded.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startPushSink, type PushSink, type PushSinkOptions } from '../../scripts/push-sink';
import type { SinkRecord, SinkService } from '../../scripts/push-sink/records';

export type { SinkRecord } from '../../scripts/push-sink/records';
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

/** Where the suite's push sink (started beside the suite by scripts/test-services.sh) writes what it accepts. */
export function pushSinkDir(): string {
  return process.env.PUSH_SINK_DIR ?? join(resolve(__dirname, '../..'), '.data', 'test-push');
}

/** What a sink kept, of one service or (without `service`) of both, FCM first; without a folder, the suite's sink. */
export function sinkRecords(dir: string | undefined, service?: SinkService): SinkRecord[] {
  dir ??= pushSinkDir();
  return (service ? [service] : (['fcm', 'apns'] as const)).flatMap((s) => {
    const file = join(dir, `${s}.jsonl`);
    if (!existsSync(file)) return [];
    return readFileSync(file, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as SinkRecord);
  });
}

/** The records of the given tokens, grouped by token. */
export function byToken(records: SinkRecord[], tokens: Iterable<string>): Map<string, SinkRecord[]> {
  const mine = new Map<string, SinkRecord[]>([...tokens].map((t) => [t, []]));
  for (const r of records) mine.get(r.token)?.push(r);
  return mine;
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

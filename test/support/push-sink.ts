// A push sink (scripts/push-sink.ts) on a free loopback port with its own folder, for
// tests that send through the real transports, and readers of what it recorded.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPushSink, type PushSink, type PushSinkOptions } from '../../scripts/push-sink';
import type { SinkRecord } from '../../scripts/push-sink/records';

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

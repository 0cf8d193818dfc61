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

export function sinkRecords(dir: string, service: 'fcm' | 'apns'): SinkRecord[] {
  const file = join(dir, `${service}.jsonl`);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as SinkRecord);
}

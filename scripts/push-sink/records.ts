// What the push sink keeps: one JSON line per accepted message in <dir>/fcm.jsonl or
// <dir>/apns.jsonl, written before the sink answers 200, so a client that got its
// answer finds the line.
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs';
import { join } from 'node:path';

export interface SinkRecord {
  token: string;
  title: string | null;
  body: string | null;
  /** FCM: message.data; APNs: the payload's custom keys (everything beside aps) */
  data: Record<string, unknown>;
  receivedAt: string;
  [extra: string]: unknown;
}

export type SinkService = 'fcm' | 'apns';

export class SinkRecords {
  private readonly streams: Record<SinkService, WriteStream>;
  readonly counts: Record<SinkService, number> = { fcm: 0, apns: 0 };

  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
    this.streams = {
      fcm: createWriteStream(join(dir, 'fcm.jsonl'), { flags: 'a' }),
      apns: createWriteStream(join(dir, 'apns.jsonl'), { flags: 'a' }),
    };
  }

  append(service: SinkService, record: SinkRecord): Promise<void> {
    this.counts[service]++;
    return new Promise((resolve, reject) =>
      this.streams[service].write(`${JSON.stringify(record)}\n`, (err) => (err ? reject(err) : resolve())),
    );
  }

  close(): Promise<void> {
    return Promise.all(Object.values(this.streams).map((s) => new Promise<void>((r) => s.end(() => r())))).then(() => undefined);
  }
}

// What firebase-admin alone reaches against the sink: the worker's own FCM transport
// (lib/push/fcm.ts: sendEach of 500 over one HTTP/2 session per call), driven from this
// process with no API, Temporal or database around it. Beside the sink's raw capacity
// (a bare HTTP/2 client) it tells how much of a send's cost is the library's and how much
// is the pipeline's (docs/push.md, "Benchmark").
import { randomUUID } from 'node:crypto';
import { demoCredentials, type DemoCredentials } from '../../lib/push/demo-credentials';
import { createFcmTransport, FCM_MAX_BATCH } from '../../lib/push/fcm';

export interface LibraryCapacity {
  messages: number;
  failures: number;
  seconds: number;
  perSecond: number;
}

export async function measureLibraryCapacity(opts: {
  url: string;
  credentials?: DemoCredentials;
  durationMs: number;
  /** sendEach calls in flight (the worker runs several page activities at once) */
  batchesInFlight?: number;
}): Promise<LibraryCapacity> {
  const creds = opts.credentials ?? demoCredentials();
  const transport = createFcmTransport({ serviceAccountJson: creds.serviceAccountJson, endpoint: opts.url });
  const batch = (lane: number, k: number) =>
    Array.from({ length: FCM_MAX_BATCH }, (_, i) => ({
      notificationId: randomUUID(),
      token: `library-${lane}-${k}-${i}`,
      title: 'library capacity',
      body: `message ${i}`,
      data: { sendId: 'library-capacity' },
    }));
  try {
    await transport.send(batch(0, -1).slice(0, 10)); // the OAuth exchange, outside the clock
    let messages = 0;
    let failures = 0;
    const started = process.hrtime.bigint();
    const deadline = Date.now() + opts.durationMs;
    const lane = async (l: number) => {
      for (let k = 0; Date.now() < deadline; k++) {
        for (const o of await transport.send(batch(l, k))) o.ok ? messages++ : failures++;
      }
    };
    await Promise.all(Array.from({ length: opts.batchesInFlight ?? 2 }, (_, l) => lane(l)));
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    return { messages, failures, seconds, perSecond: messages / seconds };
  } finally {
    await transport.close();
  }
}

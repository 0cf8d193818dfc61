// The local FCM + APNs sink: a stand-in for Google's and Apple's push services that
// speaks their wire protocols and keeps what it accepts (push-sink/records.ts):
//   FCM HTTP v1: POST /token (OAuth2 JWT-bearer, the assertion checked against the
//                service account's public key), POST /v1/projects/{p}/messages:send
//   APNs:        POST /3/device/{token} over HTTP/2 with an ES256 provider token
// One loopback port serves both, in cleartext HTTP/2 with prior knowledge (h2c), which
// node's http2 client speaks for an http:// authority: firebase-admin's session
// (redirected by lib/push/fcm-endpoint.ts), our token exchange (lib/push/fcm-credential.ts)
// and the APNs transport. So there is no certificate to generate or trust;
// FCM_ENDPOINT = APNS_ENDPOINT = http://127.0.0.1:<port>. (`curl --http2-prior-knowledge`
// talks to it too.)
//
// `npm start` runs it when FCM_ENDPOINT / APNS_ENDPOINT are unset, and the test services
// run it for the suite (main below); tests may also start one in-process (startPushSink).
// It trusts the demo credentials and, run with a DATABASE_URL, every credential uploaded
// to that stack (push-sink/db-trust.ts), kept current as apps upload or replace keys.
import { createServer as createHttp2Server, type Http2ServerRequest, type ServerHttp2Session } from 'node:http2';
import { resolve } from 'node:path';
import { createApnsHandler } from './push-sink/apns';
import { createFcmHandler } from './push-sink/fcm';
import { reply, type SinkRequest, type SinkResponse } from './push-sink/http';
import { SinkRecords } from './push-sink/records';
import { SinkTrust, type TrustedCredentials } from './push-sink/trust';

export interface PushSinkOptions {
  /** where fcm.jsonl and apns.jsonl go */
  dir: string;
  /** 0 (default): a free port */
  port?: number;
  host?: string;
  /** the credentials it accepts whatever else it learns (e.g. demoCredentials()) */
  trust: TrustedCredentials[];
  /**
   * A dynamic source of more (per-app) credentials: started before the sink listens, closed
   * with it; e.g. `(t) => startDbTrust(t, {databaseUrl, config})` for a stack's uploads.
   */
  trustSource?: (trust: SinkTrust) => Promise<{ close(): Promise<void> }>;
  now?: () => number;
}

export interface PushSink {
  port: number;
  /** FCM_ENDPOINT and APNS_ENDPOINT for the transports */
  url: string;
  dir: string;
  /** messages accepted since start */
  counts: { fcm: number; apns: number };
  /** FCM messages:send requests per HTTP/2 session, in session order (firebase-admin opens one per sendEach) */
  fcmSendsPerSession: number[];
  /** HTTP/2 sessions (client connections) accepted since start */
  sessionsOpened(): number;
  /** what it trusts now */
  trust: SinkTrust;
  close(): Promise<void>;
}

export async function startPushSink(opts: PushSinkOptions): Promise<PushSink> {
  const trust = new SinkTrust(opts.trust);
  const source = opts.trustSource ? await opts.trustSource(trust) : undefined;
  const records = new SinkRecords(opts.dir);
  const fcm = createFcmHandler(trust, records, opts.now);
  const apns = createApnsHandler(trust, records, opts.now);
  const fcmSendsPerSession: number[] = [];
  const sessionIndex = new WeakMap<object, number>();
  const countFcmSend = (req: SinkRequest) => {
    const session = (req as Http2ServerRequest).stream?.session;
    if (!session || !/\/messages:send$/.test((req.url ?? '').split('?')[0])) return;
    if (!sessionIndex.has(session)) sessionIndex.set(session, fcmSendsPerSession.push(0) - 1);
    fcmSendsPerSession[sessionIndex.get(session)!]++;
  };
  const handle = (req: SinkRequest, res: SinkResponse) => {
    countFcmSend(req);
    (async () => {
      if (await fcm(req, res)) return;
      if (await apns(req, res)) return;
      reply(res, 404, { error: { code: 404, message: 'Not found', status: 'NOT_FOUND' } });
    })().catch((err: Error & { status?: number }) => {
      if (!res.headersSent) reply(res, err.status ?? 500, { error: { code: err.status ?? 500, message: err.message } });
    });
  };
  const server = createHttp2Server({ settings: { maxConcurrentStreams: 1000 } }, handle);
  server.on('sessionError', () => {}); // a client that vanishes mid-session is not our problem
  const sessions = new Set<ServerHttp2Session>();
  let sessionsOpened = 0;
  server.on('session', (s: ServerHttp2Session) => {
    sessionsOpened++;
    sessions.add(s);
    s.on('close', () => sessions.delete(s));
  });

  await new Promise<void>((res, rej) => {
    server.once('error', rej);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => res());
  }).catch(async (err) => {
    await source?.close();
    throw err;
  });
  const port = (server.address() as { port: number }).port;
  return {
    port,
    url: `http://${opts.host ?? '127.0.0.1'}:${port}`,
    dir: opts.dir,
    counts: records.counts,
    fcmSendsPerSession,
    sessionsOpened: () => sessionsOpened,
    trust,
    async close() {
      await new Promise<void>((r) => {
        server.close(() => r());
        for (const s of sessions) s.destroy();
      });
      await source?.close();
      await records.close();
    },
  };
}

async function main() {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { demoCredentials } = require('../lib/push/demo-credentials') as typeof import('../lib/push/demo-credentials');
  const dir = resolve(process.env.PUSH_SINK_DIR ?? '.data/push');
  const sink = await startPushSink({
    dir,
    port: Number(process.env.PUSH_SINK_PORT ?? 0),
    trust: [demoCredentials()],
    trustSource: stackTrustSource(process.env),
  });
  console.log(`push sink on ${sink.url} -> ${dir} (FCM HTTP v1 + APNs, h2c)`);
  const stop = () => void sink.close().then(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

/**
 * The uploads of the stack whose environment this is: its DATABASE_URL, opened with its
 * WEBHOOK_SECRET_KEY. Without a database URL (or a key to open what it holds), none: the
 * sink serves its static list.
 */
function stackTrustSource(env: NodeJS.ProcessEnv): PushSinkOptions['trustSource'] {
  if (!env.DATABASE_URL) return undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { loadConfig } = require('../lib/config') as typeof import('../lib/config');
  const config = loadConfig(env);
  if (!config.webhookSecretKey) {
    console.log('push sink: WEBHOOK_SECRET_KEY is not set, so uploaded credentials cannot be opened; trusting the demo credentials only');
    return undefined;
  }
  // loaded here, not at the top: tests that start a sink in-process need no database code
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { startDbTrust } = require('./push-sink/db-trust') as typeof import('./push-sink/db-trust');
  return (trust) => startDbTrust(trust, { databaseUrl: config.databaseUrl, config, log: (line) => console.log(line) });
}

if (require.main === module) {
  main().catch((err: Error) => {
    console.error(`push sink failed: ${err.message}`);
    process.exit(1);
  });
}

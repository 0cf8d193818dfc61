// The push sink's raw capacity: how many messages a second it accepts from a bare
// HTTP/2 client (no firebase-admin, no transport, no database), the peer that
// `npm run bench:push` puts beside the pushes/s the service reaches, and a sink in a
// process of its own. It sits beside the sink it measures; test/lib/push-sink.test.ts
// checks both, and bench/push/sink-capacity.ts is the command line over them.
//
//   measureSinkCapacity({ url, credentials, service: 'apns', durationMs: 5000 })
//     → { service, messages, seconds, perSecond, failures }
//
// One HTTP/2 session, `concurrency` requests in flight, for `durationMs` (and at most
// `maxMessages`): APNs POSTs /3/device/<token> with a provider token; FCM first
// exchanges a JWT assertion for an access token, then POSTs messages:send. Every
// message is a real accepted one (a line in the sink's jsonl, token `capacity-…`).
import { spawn, type ChildProcess } from 'node:child_process';
import { createPrivateKey, randomUUID } from 'node:crypto';
import { connect, constants, type ClientHttp2Session } from 'node:http2';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { parseFcmServiceAccount } from '../../lib/push/credentials';
import { demoCredentials, type DemoCredentials } from '../../lib/push/demo-credentials';
import { signJwt } from '../../lib/push/jwt';

export interface SinkCapacityOptions {
  /** the sink's base URL (FCM_ENDPOINT / APNS_ENDPOINT) */
  url: string;
  /** credentials the sink trusts; default: the checkout's demo credentials */
  credentials?: DemoCredentials;
  service: 'apns' | 'fcm';
  durationMs?: number;
  concurrency?: number;
  maxMessages?: number;
}

export interface SinkCapacity {
  service: 'apns' | 'fcm';
  messages: number;
  failures: number;
  seconds: number;
  perSecond: number;
}

/** One POST on an HTTP/2 session: the status and the body as text. */
export function http2Post(session: ClientHttp2Session, path: string, headers: Record<string, string>, body: string): Promise<{ status: number; text: string }> {
  return new Promise((res, rej) => {
    const req = session.request({ [constants.HTTP2_HEADER_METHOD]: 'POST', [constants.HTTP2_HEADER_PATH]: path, ...headers });
    let status = 0;
    const chunks: Buffer[] = [];
    req.on('response', (h) => (status = Number(h[constants.HTTP2_HEADER_STATUS])));
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => res({ status, text: Buffer.concat(chunks).toString('utf8') }));
    req.on('error', rej);
    req.end(body);
  });
}

/** A function that sends one message to the sink and says whether it was accepted. */
async function sender(session: ClientHttp2Session, url: string, creds: DemoCredentials, service: 'apns' | 'fcm') {
  if (service === 'apns') {
    const { keyId, teamId, bundleId, p8KeyContent } = creds.apns;
    const jwt = signJwt('ES256', { kid: keyId }, { iss: teamId, iat: Math.floor(Date.now() / 1000) }, createPrivateKey(p8KeyContent));
    return async (i: number) => {
      const id = randomUUID();
      const payload = JSON.stringify({ aps: { alert: { title: 'capacity', body: `message ${i}` } }, notificationId: id });
      const headers = { authorization: `bearer ${jwt}`, 'apns-topic': bundleId, 'apns-push-type': 'alert', 'apns-id': id, 'content-type': 'application/json' };
      return (await http2Post(session, `/3/device/capacity-${i}`, headers, payload)).status === 200;
    };
  }
  const sa = parseFcmServiceAccount(creds.serviceAccountJson);
  const now = Math.floor(Date.now() / 1000);
  const assertion = signJwt('RS256', {}, { iss: sa.clientEmail, scope: 'https://www.googleapis.com/auth/firebase.messaging', aud: `${url}/token`, iat: now, exp: now + 3600 }, createPrivateKey(sa.privateKey));
  const form = new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }).toString();
  const tok = await http2Post(session, '/token', { 'content-type': 'application/x-www-form-urlencoded' }, form);
  if (tok.status !== 200) throw new Error(`the sink refused the token exchange: ${tok.status} ${tok.text}`);
  const accessToken = (JSON.parse(tok.text) as { access_token: string }).access_token;
  return async (i: number) => {
    const body = JSON.stringify({ message: { token: `capacity-${i}`, notification: { title: 'capacity', body: `message ${i}` }, data: { notificationId: randomUUID() } } });
    const headers = { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' };
    return (await http2Post(session, `/v1/projects/${sa.projectId}/messages:send`, headers, body)).status === 200;
  };
}

export async function measureSinkCapacity(opts: SinkCapacityOptions): Promise<SinkCapacity> {
  const durationMs = opts.durationMs ?? 5000;
  const concurrency = opts.concurrency ?? 64;
  const maxMessages = opts.maxMessages ?? 500_000;
  const session = connect(opts.url);
  session.on('error', () => {});
  try {
    const sendOne = await sender(session, opts.url, opts.credentials ?? demoCredentials(), opts.service);
    let next = 0;
    let messages = 0;
    let failures = 0;
    const started = process.hrtime.bigint();
    const deadline = Date.now() + durationMs;
    const lane = async () => {
      while (Date.now() < deadline && next < maxMessages) {
        const i = next++;
        if (await sendOne(i).catch(() => false)) messages++;
        else failures++;
      }
    };
    await Promise.all(Array.from({ length: concurrency }, lane));
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    return { service: opts.service, messages, failures, seconds, perSecond: messages / seconds };
  } finally {
    session.close();
  }
}

/** A sink in a process of its own (so it does not share this process's thread), on a free port. */
export async function startSinkProcess(dir: string): Promise<{ url: string; stop(): Promise<void> }> {
  const root = resolve(__dirname, '..', '..');
  const child: ChildProcess = spawn(join(root, 'node_modules', '.bin', 'tsx'), [join(root, 'scripts', 'push-sink.ts')], {
    cwd: root,
    env: { ...process.env, PUSH_SINK_DIR: dir, PUSH_SINK_PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((res, rej) => {
    const timer = setTimeout(() => rej(new Error('the push sink did not start within 30 s')), 30_000);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      const m = /^push sink on (http:\/\/\S+)/.exec(line);
      if (m) clearTimeout(timer), res(m[1]);
    });
    child.once('exit', (code) => rej(new Error(`the push sink exited (${code})`)));
  });
  return {
    url,
    stop: () =>
      new Promise<void>((res) => {
        if (child.exitCode !== null) return res();
        child.once('exit', () => res());
        child.kill('SIGTERM');
      }),
  };
}

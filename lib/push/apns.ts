// APNs over HTTP/2 with token (.p8, ES256 JWT) authentication, on node:http2: one
// session per transport, one POST /3/device/<token> per message, at most
// `concurrency` streams in flight. We use node:http2 directly rather than
// @parse/node-apn: the wire protocol is one request per token, and this keeps the
// endpoint, the headers (apns-id, apns-collapse-id) and the error mapping in view.
import { connect, constants, type ClientHttp2Session } from 'node:http2';
import type { KeyObject } from 'node:crypto';
import { parseApnsKey } from './credentials';
import { signJwt } from './jwt';
import { PAYLOAD_KEYS, type PushMessage, type PushOutcome, type PushTransport } from './message';
import { mapLimited } from '../map-limited';

export interface ApnsTransportOptions {
  keyId: string;
  teamId: string;
  bundleId: string;
  p8KeyContent: string;
  useSandbox: boolean;
  /** another APNs (e.g. http://127.0.0.1:4010, h2c); unset: APNS_ENDPOINT, else Apple's host */
  endpoint?: string;
  /** streams in flight on the session (Apple allows many; the server's SETTINGS cap it too) */
  concurrency?: number;
  /** per request; Apple answers in well under a second */
  timeoutMs?: number;
}

export const APNS_PRODUCTION = 'https://api.push.apple.com';
export const APNS_SANDBOX = 'https://api.sandbox.push.apple.com';
/** how many messages one `send` call is meant to carry (one page of a send) */
export const APNS_MAX_BATCH = 500;
// Apple refuses a provider token older than an hour and one refreshed more often than
// every 20 minutes: reuse one for 50 minutes.
const JWT_REUSE_SECONDS = 50 * 60;

export function createApnsTransport(opts: ApnsTransportOptions): PushTransport {
  const key: KeyObject = parseApnsKey(opts.p8KeyContent);
  const endpoint =
    (opts.endpoint ?? process.env.APNS_ENDPOINT ?? '').replace(/\/+$/, '') || (opts.useSandbox ? APNS_SANDBOX : APNS_PRODUCTION);
  const concurrency = opts.concurrency ?? 100;
  const timeoutMs = opts.timeoutMs ?? 30_000;
  let session: ClientHttp2Session | undefined;
  let jwt: { token: string; issuedAt: number } | undefined;
  let closed = false;

  function providerToken(): string {
    const now = Math.floor(Date.now() / 1000);
    if (!jwt || now - jwt.issuedAt >= JWT_REUSE_SECONDS) {
      jwt = { token: signJwt('ES256', { kid: opts.keyId }, { iss: opts.teamId, iat: now }, key), issuedAt: now };
    }
    return jwt.token;
  }

  function currentSession(): ClientHttp2Session {
    if (session && !session.closed && !session.destroyed) return session;
    const s = connect(endpoint);
    // errors reach the streams as well; here they only retire the session
    s.on('error', () => {
      if (session === s) session = undefined;
    });
    s.on('goaway', () => {
      if (session === s) session = undefined;
    });
    s.on('close', () => {
      if (session === s) session = undefined;
    });
    session = s;
    return s;
  }

  function sendOne(m: PushMessage): Promise<PushOutcome> {
    return new Promise<PushOutcome>((resolve) => {
      let settled = false;
      const done = (o: PushOutcome) => {
        if (!settled) (settled = true), resolve(o);
      };
      let req;
      try {
        req = currentSession().request({
          [constants.HTTP2_HEADER_METHOD]: 'POST',
          [constants.HTTP2_HEADER_PATH]: `/3/device/${encodeURIComponent(m.token)}`,
          authorization: `bearer ${providerToken()}`,
          'apns-topic': opts.bundleId,
          'apns-push-type': 'alert',
          'apns-priority': '10',
          // Apple shows a repeat with the same apns-id / collapse id once
          'apns-id': m.notificationId,
          'apns-collapse-id': m.notificationId,
          'content-type': 'application/json',
        });
      } catch (err) {
        return done(failure(false, true, `APNs session: ${(err as Error).message}`));
      }
      let status = 0;
      const chunks: Buffer[] = [];
      req.on('response', (headers) => (status = Number(headers[constants.HTTP2_HEADER_STATUS])));
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => done(classifyApnsResponse(status, Buffer.concat(chunks).toString('utf8'))));
      req.on('error', (err) => done(failure(false, true, `APNs request: ${err.message}`)));
      req.setTimeout(timeoutMs, () => {
        req.close(constants.NGHTTP2_CANCEL);
        done(failure(false, true, `APNs request: no answer within ${timeoutMs} ms`));
      });
      req.end(JSON.stringify(apnsPayload(m)));
    }).then((o) => {
      // an expired provider token: sign a new one for the next attempt
      if (!o.ok && o.error.includes('ExpiredProviderToken')) jwt = undefined;
      return o;
    });
  }

  return {
    maxBatch: APNS_MAX_BATCH,
    async send(messages) {
      if (closed) throw new Error('APNs transport is closed');
      return mapLimited(messages, concurrency, sendOne);
    },
    async close() {
      closed = true;
      const s = session;
      session = undefined;
      if (s && !s.closed) await new Promise<void>((r) => s.close(() => r()));
    },
  };
}

/** aps for display, then our ids and the caller's data as custom top-level keys. */
export function apnsPayload(m: PushMessage): Record<string, unknown> {
  const payload: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(m.data)) if (k !== 'aps') payload[k] = v;
  payload[PAYLOAD_KEYS.notificationId] = m.notificationId;
  if (m.campaignId) payload[PAYLOAD_KEYS.campaignId] = m.campaignId;
  if (m.deepLink) payload[PAYLOAD_KEYS.deepLink] = m.deepLink;
  payload.aps = { alert: { title: m.title, body: m.body }, sound: 'default', 'thread-id': m.campaignId ?? undefined };
  return payload;
}

function failure(deadToken: boolean, retryable: boolean, error: string): PushOutcome {
  return { ok: false, deadToken, retryable, error };
}

/** Apple's status + reason → outcome (developer.apple.com, "Handling notification responses from APNs"). */
export function classifyApnsResponse(status: number, body: string): PushOutcome {
  if (status === 200) return { ok: true };
  let reason = '';
  try {
    reason = String((JSON.parse(body) as { reason?: unknown }).reason ?? '');
  } catch {
    /* not JSON */
  }
  const error = `APNs ${status}${reason ? ` ${reason}` : ''}`;
  if (status === 410 || (status === 400 && reason === 'BadDeviceToken')) return failure(true, false, error);
  if (status === 403 && reason === 'ExpiredProviderToken') return failure(false, true, error);
  if (status === 429 || status >= 500 || status === 0) return failure(false, true, error);
  return failure(false, false, error);
}

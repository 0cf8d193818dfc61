// FCM through firebase-admin 13 (HTTP v1 `messages:send`, one HTTP/2 session per
// sendEach call of at most 500 messages), with the app's own service account. With an
// endpoint (FCM_ENDPOINT, e.g. the local sink) the OAuth exchange goes to
// `<endpoint>/token` and the HTTP/2 session to `<endpoint>` (fcm-endpoint.ts explains
// the connect override); without one, firebase-admin's own credential and Google's hosts.
import { randomUUID } from 'node:crypto';
import { cert, deleteApp, initializeApp, type App } from 'firebase-admin/app';
import { getMessaging, type Message, type SendResponse } from 'firebase-admin/messaging';
import { parseFcmServiceAccount } from './credentials';
import { JwtBearerCredential } from './fcm-credential';
import { withFcmEndpoint } from './fcm-endpoint';
import { payloadData, type PushMessage, type PushOutcome, type PushTransport } from './message';

export interface FcmTransportOptions {
  serviceAccountJson: string;
  /** another FCM (base URL, e.g. http://127.0.0.1:4010); unset: FCM_ENDPOINT, else Google's */
  endpoint?: string;
}

/** sendEach's limit */
export const FCM_MAX_BATCH = 500;

export function createFcmTransport(opts: FcmTransportOptions): PushTransport {
  const account = parseFcmServiceAccount(opts.serviceAccountJson);
  const endpoint = (opts.endpoint ?? process.env.FCM_ENDPOINT ?? '').replace(/\/+$/, '') || undefined;
  const credential = endpoint
    ? new JwtBearerCredential(account, `${endpoint}/token`)
    : cert({ projectId: account.projectId, clientEmail: account.clientEmail, privateKey: account.privateKey });
  // one named app per transport: apps with different service accounts live side by side
  const app: App = initializeApp({ credential, projectId: account.projectId }, `push-fcm-${randomUUID()}`);
  const messaging = getMessaging(app);
  let closed = false;

  async function sendChunk(chunk: PushMessage[]): Promise<PushOutcome[]> {
    let responses: SendResponse[];
    try {
      responses = (await withFcmEndpoint(endpoint, () => messaging.sendEach(chunk.map(toFcmMessage)))).responses;
    } catch (err) {
      // A session-level failure (connection refused, GOAWAY) rejects the whole call; the
      // requests that did complete are in its pendingBatchResponse.
      const pending = (err as { pendingBatchResponse?: Promise<{ responses: SendResponse[] }> }).pendingBatchResponse;
      const partial = pending ? await pending.then((b) => b.responses).catch(() => undefined) : undefined;
      const failure = classifyFcmError(err);
      return chunk.map((_, i) => (partial?.[i] ? outcomeOf(partial[i]) : failure));
    }
    return responses.map(outcomeOf);
  }

  return {
    maxBatch: FCM_MAX_BATCH,
    async send(messages) {
      if (closed) throw new Error('FCM transport is closed');
      const out: PushOutcome[] = [];
      for (let i = 0; i < messages.length; i += FCM_MAX_BATCH) {
        out.push(...(await sendChunk(messages.slice(i, i + FCM_MAX_BATCH))));
      }
      return out;
    },
    async close() {
      if (closed) return;
      closed = true;
      await deleteApp(app);
    },
  };
}

/** The HTTP v1 message: notification for display, data with our ids, the Android tag. */
export function toFcmMessage(m: PushMessage): Message {
  return {
    token: m.token,
    notification: { title: m.title, body: m.body },
    data: payloadData(m),
    // the tag makes Android replace rather than stack a repeat of the same notification
    android: { priority: 'high', notification: { tag: m.notificationId } },
  };
}

function outcomeOf(r: SendResponse): PushOutcome {
  return r.success ? { ok: true } : classifyFcmError(r.error);
}

// firebase-admin's codes (messaging/…) for the FCM v1 errors; see docs/push.md.
const DEAD_TOKEN_CODES = new Set(['messaging/registration-token-not-registered', 'messaging/invalid-registration-token']);
const RETRYABLE_CODES = new Set([
  'messaging/server-unavailable',
  'messaging/internal-error',
  'messaging/message-rate-exceeded',
  'messaging/device-message-rate-exceeded',
  'messaging/topics-message-rate-exceeded',
  'messaging/unknown-error',
  'app/network-error',
  'app/network-timeout',
]);

export function classifyFcmError(err: unknown): PushOutcome {
  const e = err as { code?: unknown; message?: unknown } | undefined;
  const code = typeof e?.code === 'string' ? e.code : '';
  const message = typeof e?.message === 'string' ? e.message : String(err);
  const error = code ? `${code}: ${message}` : message;
  // UNREGISTERED, and INVALID_ARGUMENT when it is the token that is invalid ("The
  // registration token is not a valid FCM registration token"); an INVALID_ARGUMENT
  // about the payload is our bug, not a dead device.
  if (DEAD_TOKEN_CODES.has(code) || (code === 'messaging/invalid-argument' && /registration token/i.test(message))) {
    return { ok: false, deadToken: true, retryable: false, error };
  }
  // The token exchange failing because the endpoint is unreachable or answering 5xx
  // is worth another try; a refused credential is not.
  const credentialOutage = code === 'app/invalid-credential' && /ECONNREFUSED|ECONNRESET|ETIMEDOUT|fetch failed|answered 5\d\d/.test(message);
  return { ok: false, deadToken: false, retryable: RETRYABLE_CODES.has(code) || credentialOutage || !code, error };
}

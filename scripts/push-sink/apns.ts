// APNs as Apple answers it: POST /3/device/<token> over HTTP/2 with a provider token
// (ES256 JWT: kid = key id, iss = team id, iat within the last hour) and apns-topic =
// the key's bundle id. Tokens that begin with `unregistered-` get 410 Unregistered,
// tokens that begin with `invalid-` 400 BadDeviceToken, as Apple answers dead ones.
import { randomUUID } from 'node:crypto';
import { decodeJwt, verifyJwtSignature } from '../../lib/push/jwt';
import { isObject, parseJson, readBody, reply, type SinkRequest, type SinkResponse } from './http';
import type { SinkRecords } from './records';
import type { SinkTrust } from './trust';

const DEVICE_PATH = /^\/3\/device\/([^/]+)$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_PAYLOAD = 4096;

export function createApnsHandler(trust: SinkTrust, records: SinkRecords, now: () => number = Date.now) {
  async function send(req: SinkRequest, res: SinkResponse, token: string) {
    const body = await readBody(req);
    const apnsId = String(req.headers['apns-id'] ?? '') || randomUUID();
    const refuse = (status: number, reason: string, extra: Record<string, unknown> = {}) =>
      reply(res, status, { reason, ...extra }, { 'apns-id': apnsId });
    if (req.httpVersion !== '2.0') return refuse(405, 'MethodNotAllowed'); // Apple speaks HTTP/2 only
    const auth = /^bearer (.+)$/i.exec(String(req.headers.authorization ?? ''))?.[1];
    if (!auth) return refuse(403, 'MissingProviderToken');
    const jwt = decodeJwt(auth);
    const kid = jwt && typeof jwt.header.kid === 'string' ? jwt.header.kid : undefined;
    const topic = String(req.headers['apns-topic'] ?? '');
    // the same key may be trusted for several bundles (apps sharing one .p8): the topic picks
    const verified = () => {
      if (!jwt || kid === undefined) return undefined;
      const keys = trust.apns(kid).filter((k) => jwt.claims.iss === k.teamId);
      const verifies = (k: (typeof keys)[number]) => verifyJwtSignature(jwt, 'ES256', k.publicKey);
      return keys.find((k) => k.bundleId === topic && verifies(k)) ?? keys.find((k) => k.bundleId !== topic && verifies(k));
    };
    // a key unknown here may have been uploaded a moment ago: look once more after a reload
    const key = verified() ?? (kid !== undefined && (await trust.refreshOnMiss()) ? verified() : undefined);
    if (!jwt || !key) {
      return refuse(403, 'InvalidProviderToken');
    }
    const iat = jwt.claims.iat;
    const seconds = Math.floor(now() / 1000);
    if (typeof iat !== 'number' || iat > seconds + 60) return refuse(403, 'InvalidProviderToken');
    if (seconds - iat > 3600) return refuse(403, 'ExpiredProviderToken');
    if (!topic) return refuse(400, 'MissingTopic');
    if (topic !== key.bundleId) return refuse(400, 'TopicDisallowed');
    if (req.headers['apns-id'] !== undefined && !UUID.test(apnsId)) return refuse(400, 'BadMessageId');
    const collapseId = req.headers['apns-collapse-id'];
    if (typeof collapseId === 'string' && Buffer.byteLength(collapseId) > 64) return refuse(400, 'BadCollapseId');
    if (Buffer.byteLength(body) > MAX_PAYLOAD) return refuse(413, 'PayloadTooLarge');
    const payload = parseJson(body);
    if (!isObject(payload) || !isObject(payload.aps)) return refuse(400, 'PayloadEmpty');
    if (token.startsWith('unregistered-')) return refuse(410, 'Unregistered', { timestamp: now() });
    if (token.startsWith('invalid-') || !token) return refuse(400, 'BadDeviceToken');
    const alert = payload.aps.alert;
    const { aps: _aps, ...data } = payload;
    await records.append('apns', {
      token,
      title: isObject(alert) && typeof alert.title === 'string' ? alert.title : typeof alert === 'string' ? alert : null,
      body: isObject(alert) && typeof alert.body === 'string' ? alert.body : null,
      data,
      receivedAt: new Date(now()).toISOString(),
      topic,
      apnsId,
      collapseId: typeof collapseId === 'string' ? collapseId : null,
    });
    res.writeHead(200, { 'apns-id': apnsId, 'apns-unique-id': randomUUID() });
    res.end();
  }

  /** true when the request was an APNs one (answered here) */
  return async function handleApns(req: SinkRequest, res: SinkResponse): Promise<boolean> {
    const m = DEVICE_PATH.exec((req.url ?? '').split('?')[0]);
    if (!m) return false;
    if (req.method !== 'POST') {
      reply(res, 405, { reason: 'MethodNotAllowed' });
      return true;
    }
    await send(req, res, decodeURIComponent(m[1]));
    return true;
  };
}

// FCM HTTP v1 as Google answers it: the OAuth2 JWT-bearer exchange (POST /token) and
// POST /v1/projects/{project}/messages:send with the access token it issued. Tokens
// that begin with `unregistered-` get FCM's answer for a dead token (404 NOT_FOUND,
// FcmError UNREGISTERED), tokens that begin with `invalid-` its answer for a malformed
// one (400 INVALID_ARGUMENT on message.token).
import { randomBytes, randomUUID } from 'node:crypto';
import { decodeJwt, verifyJwtSignature } from '../../lib/push/jwt';
import { isObject, parseJson, readBody, reply, type SinkRequest, type SinkResponse } from './http';
import type { SinkRecords } from './records';
import type { SinkTrust } from './trust';

const FCM_ERROR = 'type.googleapis.com/google.firebase.fcm.v1.FcmError';
const ACCESS_TOKEN_SECONDS = 3600;
const SEND_PATH = /^\/v1\/projects\/([^/]+)\/messages:send$/;

function googleError(res: SinkResponse, code: number, status: string, message: string, details: unknown[] = []) {
  reply(res, code, { error: { code, message, status, ...(details.length ? { details } : {}) } });
}

export function createFcmHandler(trust: SinkTrust, records: SinkRecords, now: () => number = Date.now) {
  const accessTokens = new Map<string, { projectId: string; expiresAt: number }>();

  async function token(req: SinkRequest, res: SinkResponse) {
    const form = new URLSearchParams(await readBody(req));
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') {
      return reply(res, 400, { error: 'unsupported_grant_type', error_description: 'Invalid grant_type' });
    }
    const jwt = decodeJwt(form.get('assertion') ?? '');
    const iss = jwt && typeof jwt.claims.iss === 'string' ? jwt.claims.iss : '';
    const verified = () => (jwt ? trust.fcm(iss).find((a) => verifyJwtSignature(jwt, 'RS256', a.publicKey)) : undefined);
    // a key unknown here may have been uploaded a moment ago: look once more after a reload
    const account = verified() ?? (jwt && (await trust.refreshOnMiss()) ? verified() : undefined);
    const seconds = Math.floor(now() / 1000);
    if (!jwt || !account) {
      return reply(res, 400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
    }
    const { exp, iat, aud } = jwt.claims;
    if (typeof exp !== 'number' || typeof iat !== 'number' || exp <= seconds || iat > seconds + 60 || exp - iat > 3600) {
      return reply(res, 400, { error: 'invalid_grant', error_description: 'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe.' });
    }
    if (typeof aud !== 'string' || !aud.endsWith('/token')) {
      return reply(res, 400, { error: 'invalid_grant', error_description: 'Invalid JWT audience.' });
    }
    const accessToken = `ya29.sink-${randomBytes(24).toString('base64url')}`;
    if (accessTokens.size >= 10_000) for (const [t, g] of accessTokens) if (g.expiresAt <= now()) accessTokens.delete(t);
    accessTokens.set(accessToken, { projectId: account.projectId, expiresAt: now() + ACCESS_TOKEN_SECONDS * 1000 });
    reply(res, 200, { access_token: accessToken, expires_in: ACCESS_TOKEN_SECONDS, token_type: 'Bearer' });
  }

  async function send(req: SinkRequest, res: SinkResponse, project: string) {
    const body = await readBody(req);
    const bearer = /^Bearer (.+)$/i.exec(String(req.headers.authorization ?? ''))?.[1];
    const grant = bearer ? accessTokens.get(bearer) : undefined;
    if (!grant || grant.expiresAt <= now()) {
      return googleError(res, 401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.');
    }
    if (grant.projectId !== project) {
      return googleError(res, 403, 'PERMISSION_DENIED', 'SenderId mismatch', [{ '@type': FCM_ERROR, errorCode: 'SENDER_ID_MISMATCH' }]);
    }
    const parsed = parseJson(body);
    const message = isObject(parsed) && isObject(parsed.message) ? parsed.message : undefined;
    const token = message && typeof message.token === 'string' ? message.token : '';
    if (!message || !token) {
      return googleError(res, 400, 'INVALID_ARGUMENT', 'Request contains an invalid argument.', [
        { '@type': FCM_ERROR, errorCode: 'INVALID_ARGUMENT' },
      ]);
    }
    if (token.startsWith('unregistered-')) {
      return googleError(res, 404, 'NOT_FOUND', 'Requested entity was not found.', [{ '@type': FCM_ERROR, errorCode: 'UNREGISTERED' }]);
    }
    if (token.startsWith('invalid-')) {
      return googleError(res, 400, 'INVALID_ARGUMENT', 'The registration token is not a valid FCM registration token', [
        { '@type': FCM_ERROR, errorCode: 'INVALID_ARGUMENT' },
        { '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field: 'message.token', description: 'Invalid registration token' }] },
      ]);
    }
    const notification = isObject(message.notification) ? message.notification : {};
    const android = isObject(message.android) && isObject(message.android.notification) ? message.android.notification : {};
    if (parsed && isObject(parsed) && parsed.validate_only === true) {
      return reply(res, 200, { name: `projects/${project}/messages/fake_message_id` });
    }
    await records.append('fcm', {
      token,
      title: typeof notification.title === 'string' ? notification.title : null,
      body: typeof notification.body === 'string' ? notification.body : null,
      data: isObject(message.data) ? message.data : {},
      receivedAt: new Date(now()).toISOString(),
      project,
      tag: typeof android.tag === 'string' ? android.tag : null,
    });
    reply(res, 200, { name: `projects/${project}/messages/${randomUUID()}` });
  }

  /** true when the request was an FCM one (answered here) */
  return async function handleFcm(req: SinkRequest, res: SinkResponse): Promise<boolean> {
    const path = (req.url ?? '').split('?')[0];
    if (req.method === 'POST' && path === '/token') return token(req, res).then(() => true);
    const m = SEND_PATH.exec(path);
    if (req.method === 'POST' && m) return send(req, res, decodeURIComponent(m[1])).then(() => true);
    return false;
  };
}

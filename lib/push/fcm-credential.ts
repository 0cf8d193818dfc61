// A firebase-admin Credential that does the OAuth2 JWT-bearer exchange (RFC 7523, what
// Google's own client does for a service account) against a token URL we choose. Used
// only when FCM_ENDPOINT points at another FCM (the local sink answers POST /token);
// against Google the transport uses firebase-admin's own `cert()` credential.
// The exchange goes over HTTP/2 (h2c for an http:// endpoint): the sink serves one
// cleartext HTTP/2 port, and node's http2 server cannot also take HTTP/1.1 there.
import type { Credential, GoogleOAuthAccessToken } from 'firebase-admin/app';
import { createPrivateKey } from 'node:crypto';
import { connect, constants } from 'node:http2';
import type { FcmServiceAccount } from './credentials';
import { signJwt } from './jwt';

export const FCM_SCOPES = ['https://www.googleapis.com/auth/firebase.messaging', 'https://www.googleapis.com/auth/cloud-platform'];

export class JwtBearerCredential implements Credential {
  private readonly key;
  constructor(
    private readonly account: FcmServiceAccount,
    private readonly tokenUrl: string,
  ) {
    this.key = createPrivateKey(account.privateKey);
  }

  async getAccessToken(): Promise<GoogleOAuthAccessToken> {
    const now = Math.floor(Date.now() / 1000);
    const assertion = signJwt(
      'RS256',
      this.account.privateKeyId ? { kid: this.account.privateKeyId } : {},
      { iss: this.account.clientEmail, scope: FCM_SCOPES.join(' '), aud: this.tokenUrl, iat: now, exp: now + 3600 },
      this.key,
    );
    const form = new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion }).toString();
    const { status, text } = await postForm(this.tokenUrl, form, 10_000);
    if (status !== 200) throw new Error(`OAuth token exchange at ${this.tokenUrl} answered ${status}: ${text.slice(0, 300)}`);
    const json = JSON.parse(text) as { access_token?: unknown; expires_in?: unknown };
    if (typeof json.access_token !== 'string' || typeof json.expires_in !== 'number') {
      throw new Error(`OAuth token exchange at ${this.tokenUrl} answered without access_token/expires_in`);
    }
    return { access_token: json.access_token, expires_in: json.expires_in };
  }
}

function postForm(url: string, form: string, timeoutMs: number): Promise<{ status: number; text: string }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const session = connect(target.origin);
    const fail = (err: Error) => {
      session.destroy();
      reject(err);
    };
    session.on('error', fail);
    const req = session.request({
      [constants.HTTP2_HEADER_METHOD]: 'POST',
      [constants.HTTP2_HEADER_PATH]: `${target.pathname}${target.search}`,
      'content-type': 'application/x-www-form-urlencoded',
    });
    let status = 0;
    const chunks: Buffer[] = [];
    req.setTimeout(timeoutMs, () => fail(new Error(`OAuth token exchange at ${url}: ETIMEDOUT`)));
    req.on('response', (h) => (status = Number(h[constants.HTTP2_HEADER_STATUS])));
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('error', fail);
    req.on('end', () => {
      session.close();
      resolve({ status, text: Buffer.concat(chunks).toString('utf8') });
    });
    req.end(form);
  });
}

// Validators for the credentials an app stores (PUT /apps/{id}/fcm-config and
// /apps/{id}/apns-config) and that the transports use. They throw a CredentialError
// naming the request field (and what inside it is wrong), which the API answers as a
// 400 `{message, errors: {[field]: [detail]}}`. Nothing here talks to the network:
// a credential that parses can still be refused by Google or Apple at send time.
import { createPrivateKey, type KeyObject } from 'node:crypto';

export class CredentialError extends Error {
  /** the request field the problem is in: serviceAccountJson, keyId, teamId, bundleId, p8KeyContent */
  readonly field: string;
  readonly detail: string;
  constructor(field: string, detail: string) {
    super(`${field}: ${detail}`);
    this.name = 'CredentialError';
    this.field = field;
    this.detail = detail;
  }
}

export interface FcmServiceAccount {
  projectId: string;
  clientEmail: string;
  /** PEM, as in the JSON file (PKCS#8 RSA) */
  privateKey: string;
  privateKeyId?: string;
  /** where the OAuth2 JWT-bearer exchange goes; Google's unless the file says otherwise */
  tokenUri: string;
}

export const GOOGLE_TOKEN_URI = 'https://oauth2.googleapis.com/token';
const FCM_FIELD = 'serviceAccountJson';
// Google project ids: 6-30 lowercase letters, digits and hyphens, starting with a letter
// (older ones may carry a "domain:" prefix).
const PROJECT_ID = /^(?:[a-z0-9.-]+:)?[a-z][a-z0-9-]{4,28}[a-z0-9]$/;
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

/** A Firebase service account file (the JSON Google's console downloads), as a string or parsed. */
export function parseFcmServiceAccount(json: string | Record<string, unknown>): FcmServiceAccount {
  let raw: unknown = json;
  if (typeof json === 'string') {
    try {
      raw = JSON.parse(json);
    } catch {
      throw new CredentialError(FCM_FIELD, 'is not valid JSON');
    }
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
    throw new CredentialError(FCM_FIELD, 'must be a JSON object (a service account file)');
  }
  const sa = raw as Record<string, unknown>;
  const str = (key: string): string | undefined => {
    const v = sa[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'string') throw new CredentialError(FCM_FIELD, `${key} must be a string`);
    return v;
  };
  const type = str('type');
  if (type !== undefined && type !== 'service_account') {
    throw new CredentialError(FCM_FIELD, `type must be "service_account", got "${type}"`);
  }
  const projectId = str('project_id');
  if (!projectId) throw new CredentialError(FCM_FIELD, 'project_id is missing');
  if (!PROJECT_ID.test(projectId)) throw new CredentialError(FCM_FIELD, 'project_id is not a Google Cloud project id');
  const clientEmail = str('client_email');
  if (!clientEmail) throw new CredentialError(FCM_FIELD, 'client_email is missing');
  if (!EMAIL.test(clientEmail)) throw new CredentialError(FCM_FIELD, 'client_email is not an email address');
  const privateKey = str('private_key');
  if (!privateKey) throw new CredentialError(FCM_FIELD, 'private_key is missing');
  let key: KeyObject;
  try {
    key = createPrivateKey(privateKey);
  } catch {
    throw new CredentialError(FCM_FIELD, 'private_key is not a PEM private key');
  }
  // Google signs the OAuth assertion with RS256: only RSA keys of 2048 bits or more work.
  if (key.asymmetricKeyType !== 'rsa' || (key.asymmetricKeyDetails?.modulusLength ?? 0) < 2048) {
    throw new CredentialError(FCM_FIELD, 'private_key must be an RSA key of at least 2048 bits');
  }
  const tokenUri = str('token_uri') ?? GOOGLE_TOKEN_URI;
  let parsedUri: URL;
  try {
    parsedUri = new URL(tokenUri);
  } catch {
    throw new CredentialError(FCM_FIELD, 'token_uri is not a URL');
  }
  if (parsedUri.protocol !== 'https:' && !(parsedUri.protocol === 'http:' && isLoopback(parsedUri.hostname))) {
    throw new CredentialError(FCM_FIELD, 'token_uri must be an https URL');
  }
  return { projectId, clientEmail, privateKey, privateKeyId: str('private_key_id'), tokenUri };
}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '[::1]' || host === '::1' || /^127\./.test(host);
}

export interface ApnsKey {
  keyId: string;
  teamId: string;
  bundleId: string;
  /** the .p8 file's content (PKCS#8 PEM of an EC P-256 key) */
  p8KeyContent: string;
  useSandbox: boolean;
}

/** The .p8 content Apple hands out: a PKCS#8 PEM EC private key on P-256 (ES256). */
export function parseApnsKey(p8: string): KeyObject {
  const field = 'p8KeyContent';
  if (typeof p8 !== 'string' || !p8.trim()) throw new CredentialError(field, 'is empty');
  let key: KeyObject;
  try {
    key = createPrivateKey(p8.includes('-----BEGIN') ? p8 : wrapPem(p8));
  } catch {
    throw new CredentialError(field, 'is not a PEM private key (the content of the .p8 file)');
  }
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    throw new CredentialError(field, 'must be an EC P-256 private key (APNs signs with ES256)');
  }
  return key;
}

/** A .p8 pasted without its armour lines: the base64 body alone. */
function wrapPem(body: string): string {
  const b64 = body.replace(/\s+/g, '');
  return `-----BEGIN PRIVATE KEY-----\n${b64.replace(/(.{64})/g, '$1\n')}\n-----END PRIVATE KEY-----\n`;
}

// Apple's key and team ids are 10 upper-case letters and digits; bundle ids are
// reverse-DNS (letters, digits, hyphens, dots).
const APPLE_ID = /^[A-Z0-9]{10}$/;
const BUNDLE_ID = /^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/;

/** The whole apns-config body: ids, key and environment. Returns the normalised config. */
export function parseApnsConfig(input: {
  keyId: unknown;
  teamId: unknown;
  bundleId: unknown;
  p8KeyContent: unknown;
  useSandbox?: unknown;
}): ApnsKey {
  if (typeof input.keyId !== 'string' || !APPLE_ID.test(input.keyId)) {
    throw new CredentialError('keyId', 'must be the 10-character key id Apple shows for the key');
  }
  if (typeof input.teamId !== 'string' || !APPLE_ID.test(input.teamId)) {
    throw new CredentialError('teamId', 'must be the 10-character Apple team id');
  }
  if (typeof input.bundleId !== 'string' || !BUNDLE_ID.test(input.bundleId) || input.bundleId.length > 155) {
    throw new CredentialError('bundleId', 'must be a bundle id such as com.example.game');
  }
  if (typeof input.p8KeyContent !== 'string') throw new CredentialError('p8KeyContent', 'must be a string');
  parseApnsKey(input.p8KeyContent);
  if (input.useSandbox !== undefined && typeof input.useSandbox !== 'boolean') {
    throw new CredentialError('useSandbox', 'must be a boolean');
  }
  return {
    keyId: input.keyId,
    teamId: input.teamId,
    bundleId: input.bundleId,
    p8KeyContent: input.p8KeyContent,
    useSandbox: input.useSandbox ?? false,
  };
}

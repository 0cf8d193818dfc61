// Validators of the push credentials an app stores (PUT /apps/{id}/fcm-config and
// /apns-config) and that the transports read back: each throws a CredentialsError that
// names the offending field, so the API answers a 400 that says what to fix.
import { createPrivateKey, type KeyObject } from 'node:crypto';

export class CredentialsError extends Error {
  constructor(
    /** the request field (or `field.subfield` inside the service-account JSON) */
    readonly field: string,
    message: string,
  ) {
    super(`${field}: ${message}`);
  }
}

export interface FcmServiceAccount {
  project_id: string;
  client_email: string;
  private_key: string;
  /** the whole parsed document (token_uri and the rest), as Google wrote it */
  raw: Record<string, unknown>;
}

function privateKeyOf(pem: string, field: string): KeyObject {
  try {
    return createPrivateKey({ key: pem, format: 'pem' });
  } catch {
    throw new CredentialsError(field, 'is not a PEM private key');
  }
}

const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.trim().length > 0;

/** A Google service-account JSON document: project_id, client_email and an RSA private_key. */
export function parseFcmServiceAccount(json: string): FcmServiceAccount {
  const field = 'serviceAccountJson';
  let doc: unknown;
  try {
    doc = JSON.parse(json);
  } catch {
    throw new CredentialsError(field, 'is not valid JSON');
  }
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) throw new CredentialsError(field, 'must be a JSON object');
  const raw = doc as Record<string, unknown>;
  if (raw.type !== undefined && raw.type !== 'service_account') {
    throw new CredentialsError(`${field}.type`, "must be 'service_account'");
  }
  if (!nonEmpty(raw.project_id)) throw new CredentialsError(`${field}.project_id`, 'is required');
  if (!nonEmpty(raw.client_email) || !/^[^@\s]+@[^@\s]+$/.test(raw.client_email)) {
    throw new CredentialsError(`${field}.client_email`, 'must be an email address');
  }
  if (!nonEmpty(raw.private_key)) throw new CredentialsError(`${field}.private_key`, 'is required');
  const key = privateKeyOf(raw.private_key, `${field}.private_key`);
  if (key.asymmetricKeyType !== 'rsa') throw new CredentialsError(`${field}.private_key`, 'must be an RSA private key');
  return { project_id: raw.project_id, client_email: raw.client_email, private_key: raw.private_key, raw };
}

/** The APNs auth key (.p8): a PKCS#8 PEM EC key on P-256. Returns the parsed key. */
export function parseApnsKey(p8: string): KeyObject {
  const field = 'p8KeyContent';
  if (!nonEmpty(p8)) throw new CredentialsError(field, 'is required');
  const key = privateKeyOf(p8.trim(), field);
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') {
    throw new CredentialsError(field, 'must be an EC P-256 private key (the .p8 file Apple issues)');
  }
  return key;
}

/** What an app's APNs configuration holds (sealed at rest). */
export interface ApnsConfig {
  keyId: string;
  teamId: string;
  bundleId: string;
  p8KeyContent: string;
  useSandbox: boolean;
}

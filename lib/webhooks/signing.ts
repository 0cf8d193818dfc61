// Signatures on webhook deliveries. One endpoint secret (`whsec_<base64>`) serves two
// schemes, see docs/webhooks.md ("Signatures"):
//  - x-service-signature (ticketing spec): hex HMAC-SHA256 of the raw body, keyed with the
//    secret string exactly as shown to the user (its UTF-8 bytes, prefix included), because
//    that is what "keyed with the endpoint's secret" means to a receiver writing
//    createHmac('sha256', secret).
//  - Standard Webhooks (webhook-id / webhook-timestamp / webhook-signature): keyed with the
//    base64-decoded bytes after `whsec_`, as that standard and its `standardwebhooks`
//    library define it.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SECRET_PREFIX = 'whsec_';
/** 256 bits, within the 24-64 bytes Standard Webhooks recommends. */
export const SECRET_BYTES = 32;
export const SERVICE_SIGNATURE_HEADER = 'x-service-signature';
/** During the 24 h after a rotation: x-service-signature keyed with the secret it replaced. */
export const PREVIOUS_SERVICE_SIGNATURE_HEADER = 'x-service-signature-previous';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function newEndpointSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString('base64');
}

/** The Standard Webhooks HMAC key: the bytes encoded after the prefix. */
export function standardWebhooksKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : '';
  // Buffer.from(…, 'base64') silently skips junk, so check the alphabet first.
  if (!BASE64.test(encoded)) throw new Error('endpoint secret must be whsec_ followed by standard base64');
  const key = Buffer.from(encoded, 'base64');
  if (key.length < 24 || key.length > 64) throw new Error('endpoint secret must encode 24 to 64 bytes');
  return key;
}

export function isEndpointSecret(secret: string): boolean {
  try {
    standardWebhooksKey(secret);
    return true;
  } catch {
    return false;
  }
}

/** Value of x-service-signature: hex HMAC-SHA256 of the exact bytes sent. */
export function signBody(secret: string, rawBody: Buffer | string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(rawBody).digest('hex');
}

/** Receiver-side check of x-service-signature, in constant time. Case of the hex is ignored. */
export function verifyServiceSignature(secret: string, rawBody: Buffer | string, signature: string | undefined | null): boolean {
  if (typeof signature !== 'string' || !/^[0-9a-fA-F]{64}$/.test(signature)) return false;
  const expected = Buffer.from(signBody(secret, rawBody), 'hex');
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}

export interface StandardWebhookInput {
  /** stable across retries (the envelope's evt_ id) so receivers can deduplicate */
  id: string;
  /** time of this attempt in whole seconds: receivers refuse timestamps older than 5 min */
  timestampSeconds: number;
  body: Buffer | string;
  secret: string;
}

export interface StandardWebhookHeaders {
  'webhook-id': string;
  'webhook-timestamp': string;
  'webhook-signature': string;
}

export function standardWebhookHeaders({ id, timestampSeconds, body, secret }: StandardWebhookInput): StandardWebhookHeaders {
  if (!Number.isInteger(timestampSeconds) || timestampSeconds < 0) throw new RangeError('timestampSeconds must be whole seconds');
  // The id becomes part of the signed string, so a '.' in it would make it ambiguous.
  if (!id || id.includes('.')) throw new Error('webhook id must be non-empty and contain no "."');
  const hmac = createHmac('sha256', standardWebhooksKey(secret));
  hmac.update(`${id}.${timestampSeconds}.`).update(body);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': `v1,${hmac.digest('base64')}`,
  };
}

/**
 * The signature schemes a delivery can carry: `service-signature` (the x-service-signature
 * header) and `standard-webhooks` (webhook-id / webhook-timestamp / webhook-signature).
 * Which ones an API's deliveries carry is that API's data (domain/webhooks/apis.ts).
 */
export type SignatureScheme = 'service-signature' | 'standard-webhooks';
export const SIGNATURE_SCHEMES: readonly SignatureScheme[] = Object.freeze(['service-signature', 'standard-webhooks'] as const);

export interface DeliverySigningInput extends StandardWebhookInput {
  /**
   * The secret a rotation replaced, while its 24 h last (docs/webhooks.md, "Secret
   * rotation"): each scheme then also carries a signature keyed with it, so a receiver
   * still verifying with the old secret keeps accepting until it switches.
   */
  previousSecret?: string | null;
}

/**
 * The headers of one attempt with the given schemes (default both). Compute per attempt:
 * the timestamp must be fresh. With a previous secret, `webhook-signature` lists the new
 * signature first and the old one after a space (Standard Webhooks allows several), and
 * `x-service-signature-previous` carries the old secret's hex signature.
 */
export function deliveryHeaders(input: DeliverySigningInput, schemes: readonly SignatureScheme[] = SIGNATURE_SCHEMES): Record<string, string> {
  const previous = input.previousSecret ?? null;
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (schemes.includes('service-signature')) {
    headers[SERVICE_SIGNATURE_HEADER] = signBody(input.secret, input.body);
    if (previous !== null) headers[PREVIOUS_SERVICE_SIGNATURE_HEADER] = signBody(previous, input.body);
  }
  if (schemes.includes('standard-webhooks')) {
    const current = standardWebhookHeaders(input);
    Object.assign(headers, current);
    if (previous !== null) {
      const old = standardWebhookHeaders({ ...input, secret: previous })['webhook-signature'];
      headers['webhook-signature'] = `${current['webhook-signature']} ${old}`;
    }
  }
  return headers;
}

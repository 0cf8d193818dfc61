// Rotating an endpoint's signing secret, as Svix has it (docs/webhooks.md, "Secret
// rotation"), for the endpoints of either API: a new secret, answered once, and for
// ROTATION_OVERLAP_MS the replaced one is still signed with beside it, so a receiver can
// switch without refusing a delivery. A second rotation within that time keeps only the
// secret it replaces as the previous one. Both are sealed bound to the endpoint id.
import type { Executor } from '../../db/db';
import { findEndpoint, rotateEndpointSecret, type EndpointRecord } from '../../db/repositories/webhook-endpoints';
import { encryptSecret } from '../../lib/crypto/secret-box';
import { newEndpointSecret } from '../../lib/webhooks/signing';
import { webhookRefusals } from './errors';

/** How long deliveries carry the replaced secret's signatures after a rotation: 24 h. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** The endpoint and its new secret in the clear (shown only in the rotation's answer). */
export async function rotateSecret(
  executor: Executor,
  deps: { secretKey: Buffer },
  endpointId: string,
  now: Date,
): Promise<{ endpoint: EndpointRecord; secret: string; previousExpiresAt: Date }> {
  const secret = newEndpointSecret();
  const previousExpiresAt = new Date(now.getTime() + ROTATION_OVERLAP_MS);
  const rotated = await rotateEndpointSecret(executor, endpointId, encryptSecret(deps.secretKey, secret, endpointId), previousExpiresAt);
  const endpoint = rotated ? await findEndpoint(executor, endpointId) : null;
  if (!endpoint) throw webhookRefusals.webhookNotFound(endpointId); // deleted meanwhile
  return { endpoint, secret, previousExpiresAt };
}

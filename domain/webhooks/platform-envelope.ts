// The webhook envelope of the platform API (its row in apis.ts): snake_case, as the
// platform spec names its fields. Its bytes are stored with the delivery row and sent
// unchanged on every attempt (X-Service-Signature covers those bytes).
import type { Envelope } from './envelope';

/** `{ id, type, workspace_id, created_at, data }`; `id` is the delivery's `evt_…` id, the same on every retry. */
export const platformEnvelope: Envelope = (deliveryId, e) =>
  JSON.stringify({ id: deliveryId, type: e.type, workspace_id: e.workspaceId, created_at: new Date(e.occurredAt).toISOString(), data: e.data });

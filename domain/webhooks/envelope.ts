// The webhook envelope as the ticketing spec defines it. Its bytes are stored with the
// delivery row and sent unchanged on every attempt (the signatures cover those bytes).

/** `id` is the delivery's `evt_…` id: the `webhook-id` header, the same on every retry. */
export function envelope(deliveryId: string, e: { type: string; workspaceId: string; occurredAt: Date | string; data: unknown }): string {
  const timestamp = new Date(e.occurredAt).toISOString();
  return JSON.stringify({ id: deliveryId, event: e.type, workspaceId: e.workspaceId, timestamp, data: e.data });
}

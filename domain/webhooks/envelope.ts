// The webhook envelope as the ticketing spec defines it (the ticketing API's `envelope`
// in apis.ts). Its bytes are stored with the delivery row and sent unchanged on every
// attempt (the signatures cover those bytes).

/** What an envelope is made of: one event, as the outbox (or the test sender) has it. */
export interface EnvelopeEvent {
  type: string;
  workspaceId: string;
  occurredAt: Date | string;
  data: unknown;
}

/** An API's envelope: the exact body of a delivery, given its `evt_…` id and its event. */
export type Envelope = (deliveryId: string, event: EnvelopeEvent) => string;

/** `id` is the delivery's `evt_…` id: the `webhook-id` header, the same on every retry. */
export const envelope: Envelope = (deliveryId, e) => {
  const timestamp = new Date(e.occurredAt).toISOString();
  return JSON.stringify({ id: deliveryId, event: e.type, workspaceId: e.workspaceId, timestamp, data: e.data });
};

// The message, outcome and transport types (re-exported by transport.ts, which is
// what callers import) and the payload keys both transports add.
export interface PushMessage {
  /** the stable id of this (send, device) pair: FCM data + Android tag, APNs apns-id + payload key */
  notificationId: string;
  token: string;
  title: string;
  body: string;
  deepLink?: string | null;
  /** string values only (FCM's data map is string → string; APNs gets the same keys) */
  data: Record<string, string>;
  /** set for campaign pushes; travels beside the notificationId in the payload */
  campaignId?: string | null;
}

export type PushOutcome =
  | { ok: true }
  | {
      ok: false;
      /** the service says this token will never work again: mark the device inactive */
      deadToken: boolean;
      /** a later attempt may succeed (throttling, 5xx, network) */
      retryable: boolean;
      error: string;
    };

export interface PushTransport {
  /** the most messages one `send` call takes (FCM sendEach: 500; APNs: one session, many POSTs) */
  readonly maxBatch: number;
  send(messages: PushMessage[]): Promise<PushOutcome[]>;
  close(): Promise<void>;
}

/** Keys the transports put into every payload beside the caller's data. */
export const PAYLOAD_KEYS = { notificationId: 'notificationId', campaignId: 'campaignId', deepLink: 'deepLink' } as const;

/** The caller's data plus notificationId, campaignId and deepLink (ours win over the caller's). */
export function payloadData(m: PushMessage): Record<string, string> {
  const data: Record<string, string> = { ...m.data, [PAYLOAD_KEYS.notificationId]: m.notificationId };
  if (m.campaignId) data[PAYLOAD_KEYS.campaignId] = m.campaignId;
  if (m.deepLink) data[PAYLOAD_KEYS.deepLink] = m.deepLink;
  return data;
}


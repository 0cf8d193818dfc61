// A send's message for one device, as the transport takes it (lib/push/transport.ts).
import type { PushMessage } from '../../lib/push/transport';
import type { SendMessage } from '../../db/repositories/push-sends';

/** FCM data values are strings: strings stay as they are, anything else is its JSON. */
export function dataOf(customData: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(customData ?? {})) out[k] = typeof v === 'string' ? v : JSON.stringify(v);
  return out;
}

/** `own`: the notification's own text when it has one (an event trigger firing's), else the send's. */
export function messageFor(send: SendMessage, notificationId: string, token: string, own?: { title: string | null; body: string | null }): PushMessage {
  return {
    notificationId,
    token,
    title: own?.title ?? send.title,
    body: own?.body ?? send.body,
    deepLink: send.deepLink,
    // a campaign's image: FCM data and an APNs custom key, for the app to show (a
    // notification-service extension on iOS); direct sends have none
    data: send.imageUrl ? { ...dataOf(send.customData), imageUrl: send.imageUrl } : dataOf(send.customData),
    campaignId: send.campaignId,
  };
}

// Postmark's email API (https://postmarkapp.com/developer/user-guide/send-email-with-api):
// `POST {apiUrl}/email` authenticated by `X-Postmark-Server-Token`. Accepted: HTTP 200 with
// `{ErrorCode: 0, MessageID, …}`; anything else (an ErrorCode, a non-2xx status, a
// time-out, the network) rejects with one short line the chain records as the reason.
import type { EmailMessage } from './types';

export interface PostmarkOptions {
  apiUrl: string;
  serverToken: string;
  messageStream: string;
  from: string;
  timeoutMs: number;
}

export interface PostmarkAccepted {
  messageId: string;
}

/** Bodies are provider text: one line, bounded, so a failure reason stays a short line. */
const brief = (s: string) => s.replace(/\s+/g, ' ').trim().slice(0, 200);

export function createPostmarkClient(o: PostmarkOptions) {
  return {
    async send(m: EmailMessage): Promise<PostmarkAccepted> {
      const body = {
        From: o.from,
        // Postmark takes several recipients as one comma-separated string
        To: Array.isArray(m.to) ? m.to.join(', ') : m.to,
        Subject: m.subject,
        TextBody: m.text,
        HtmlBody: m.html,
        Tag: m.tag,
        MessageStream: o.messageStream,
        ...(m.headers && { Headers: Object.entries(m.headers).map(([Name, Value]) => ({ Name, Value })) }),
      };
      let res: Response;
      let text: string;
      try {
        res = await fetch(`${o.apiUrl}/email`, {
          method: 'POST',
          headers: { Accept: 'application/json', 'Content-Type': 'application/json', 'X-Postmark-Server-Token': o.serverToken },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(o.timeoutMs),
        });
        // the time-out covers the body too: a provider that sends headers and then stalls
        text = await res.text();
      } catch (err: any) {
        if (err?.name === 'TimeoutError') throw new Error(`postmark: timed out after ${o.timeoutMs} ms`);
        throw new Error(`postmark: ${brief(err?.cause?.code ?? err?.message ?? String(err))}`);
      }
      let json: any;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      if (!res.ok) {
        const detail = json && typeof json.ErrorCode === 'number' ? `ErrorCode ${json.ErrorCode} ${json.Message ?? ''}` : res.statusText || text;
        throw new Error(`postmark: ${res.status} ${brief(String(detail))}`.trimEnd());
      }
      if (!json || typeof json !== 'object') throw new Error('postmark: 200 with a body that is not JSON');
      if (json.ErrorCode !== 0) throw new Error(`postmark: ErrorCode ${json.ErrorCode} ${brief(String(json.Message ?? ''))}`.trimEnd());
      if (typeof json.MessageID !== 'string' || !json.MessageID) throw new Error('postmark: accepted without a MessageID');
      return { messageId: json.MessageID };
    },
  };
}

// A fake of Postmark's email API on 127.0.0.1 for the email chain's tests: it records every
// request (headers and parsed body) and answers as the test programs it: accepted (200 with
// a MessageID), a 5xx, an ErrorCode (422, as Postmark answers an invalid request), or a
// hang that never answers (the client's time-out); an accepted message may be answered
// late (`delayMs`). A 5xx comes with a text body, as from the load balancer in front of an
// API. Like Postmark it answers 401 with ErrorCode 10 when the X-Postmark-Server-Token
// header is missing or wrong.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export type PostmarkAnswer = 'ok' | 'hang' | { status: number } | { errorCode: number; message?: string };

export interface PostmarkRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
  /** the MessageID answered, when accepted */
  messageId?: string;
}

export interface FakePostmarkOptions {
  serverToken: string;
  /** the answer for one message (else the programmed one): a whole test run's fake picks by recipient */
  answerFor?: (body: any) => PostmarkAnswer | undefined;
  /** accepted messages are also written here, one JSON file each (a test run's fake, read by the tests) */
  dir?: string;
  /** an accepted message is answered this many ms after it arrived (a slow provider: a crash test's emails in flight) */
  delayMs?: number;
}

export async function startFakePostmark(opts: FakePostmarkOptions) {
  const requests: PostmarkRequest[] = [];
  let answer: PostmarkAnswer = 'ok';
  const hanging = new Set<http.ServerResponse>();
  /** accepted messages that wait for their delayed answer */
  const delayed = new Map<PostmarkRequest, NodeJS.Timeout>();

  const json = (res: http.ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
  };

  const accept = (res: http.ServerResponse, record: PostmarkRequest, body: any) => {
    record.messageId = randomUUID();
    if (opts.dir) writeFileSync(join(opts.dir, `${record.messageId}.json`), JSON.stringify({ messageId: record.messageId, ...body }));
    json(res, 200, { To: body?.To, SubmittedAt: new Date().toISOString(), MessageID: record.messageId, ErrorCode: 0, Message: 'OK' });
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: any;
      try {
        body = JSON.parse(raw);
      } catch {
        body = raw;
      }
      const record: PostmarkRequest = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
      requests.push(record);
      if (req.method !== 'POST' || req.url !== '/email') return json(res, 404, { ErrorCode: 404, Message: 'Not found' });
      if (req.headers['x-postmark-server-token'] !== opts.serverToken)
        return json(res, 401, { ErrorCode: 10, Message: 'The Server Token you provided in the X-Postmark-Server-Token request header was invalid.' });
      const a = opts.answerFor?.(body) ?? answer;
      if (a === 'hang') {
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        return;
      }
      if (a === 'ok' && opts.delayMs) {
        delayed.set(record, setTimeout(() => {
          delayed.delete(record);
          // the sender is gone (killed): nothing to answer, and no message id it could know
          if (!res.destroyed) accept(res, record, body);
        }, opts.delayMs));
        return;
      }
      if (a === 'ok') return accept(res, record, body);
      if ('status' in a) {
        // what a load balancer in front of an API answers: a status and a text body
        res.writeHead(a.status, { 'Content-Type': 'text/plain' });
        return res.end(http.STATUS_CODES[a.status] ?? 'Error');
      }
      return json(res, 422, { ErrorCode: a.errorCode, Message: a.message ?? 'Invalid email request' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    /** how the next requests are answered (until changed) */
    answer(a: PostmarkAnswer) {
      answer = a;
    },
    /** accepted messages not answered yet (`delayMs`) */
    waiting(): PostmarkRequest[] {
      return [...delayed.keys()];
    },
    async stop() {
      for (const timer of delayed.values()) clearTimeout(timer);
      delayed.clear();
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

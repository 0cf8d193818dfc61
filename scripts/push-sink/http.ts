// The request/response helpers both protocol handlers use; the same functions serve
// HTTP/1.1 (node:http) and HTTP/2 compatibility-API requests.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest, Http2ServerResponse } from 'node:http2';

export type SinkRequest = IncomingMessage | Http2ServerRequest;
export type SinkResponse = ServerResponse | Http2ServerResponse;

const MAX_BODY = 1 << 20;

export function readBody(req: SinkRequest): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) reject(Object.assign(new Error('body too large'), { status: 413 }));
      else chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export function reply(res: SinkResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = body === undefined ? '' : JSON.stringify(body);
  (res as ServerResponse).writeHead(status, {
    ...(text ? { 'content-type': 'application/json; charset=UTF-8' } : {}),
    ...headers,
  });
  (res as ServerResponse).end(text);
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

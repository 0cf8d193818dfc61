import http from 'node:http';
import https from 'node:https';
import type { AttemptResult } from '../../workflows/webhook-delivery/retry-schedule.logic';

/**
 * One signed POST, through the given (SSRF-safe) agent, never following redirects,
 * abandoned after `timeoutMs` in total. Never throws: the result says what happened.
 */
export function postOnce(
  url: string,
  body: string,
  headers: Record<string, string>,
  agent: http.Agent,
  timeoutMs: number,
): Promise<AttemptResult> {
  return new Promise((resolve) => {
    const target = new URL(url);
    const send = target.protocol === 'https:' ? https.request : http.request;
    let settled = false;
    const done = (r: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const req = send(target, { method: 'POST', agent, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
      res.resume(); // the answer's body is not used; drain it so the socket can be reused
      res.on('end', () => done({ status: res.statusCode }));
      res.on('error', (err) => done({ status: res.statusCode, error: err.message }));
    });
    const timer = setTimeout(() => {
      done({ timedOut: true });
      req.destroy();
    }, timeoutMs);
    req.on('error', (err) => done({ error: err.message }));
    req.end(body);
  });
}

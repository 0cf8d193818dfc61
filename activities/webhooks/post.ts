import http from 'node:http';
import https from 'node:https';
import type { AttemptResult } from '../../domain/webhooks/types';

/**
 * One signed POST, through the given (SSRF-safe, keep-alive) agent, never following
 * redirects, abandoned after `timeoutMs` in total. Never throws: the result says what
 * happened. A kept-alive socket the receiver closed while idle fails at once with a reset;
 * that is our connection pool's race, not the receiver failing, so the request is sent once
 * more on a fresh connection (the pattern Node's http docs give for `reusedSocket`).
 */
export function postOnce(
  url: string,
  body: string,
  headers: Record<string, string>,
  agent: http.Agent,
  timeoutMs: number,
): Promise<AttemptResult> {
  const deadline = Date.now() + timeoutMs;
  return send(new URL(url), body, headers, agent, deadline, true);
}

function send(
  target: URL,
  body: string,
  headers: Record<string, string>,
  agent: http.Agent,
  deadline: number,
  mayResend: boolean,
): Promise<AttemptResult> {
  return new Promise((resolve) => {
    const request = target.protocol === 'https:' ? https.request : http.request;
    let settled = false;
    const done = (r: AttemptResult | Promise<AttemptResult>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const req = request(target, { method: 'POST', agent, headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
      res.resume(); // the answer's body is not used; drain it so the socket can be reused
      res.on('end', () => done({ status: res.statusCode }));
      res.on('error', (err) => done({ status: res.statusCode, error: err.message }));
    });
    const timer = setTimeout(() => {
      done({ timedOut: true });
      req.destroy();
    }, Math.max(0, deadline - Date.now()));
    req.on('error', (err: NodeJS.ErrnoException) => {
      const staleSocket = req.reusedSocket && (err.code === 'ECONNRESET' || err.code === 'EPIPE');
      if (staleSocket && mayResend) done(send(target, body, headers, agent, deadline, false));
      else done({ error: err.message });
    });
    req.end(body);
  });
}

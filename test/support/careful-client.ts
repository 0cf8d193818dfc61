// A careful client of the fault runs: one Idempotency-Key per operation, the same key and
// body retried on network errors, 5xx, 429 and 409-in-progress until the operation is
// answered; any other answer is a failure of the test. Every attempt is kept (status,
// when, how long, whether it came in the API's envelope with Retry-After) for the
// assertions and the phase table.
import { setTimeout as sleep } from 'node:timers/promises';

export interface Attempt {
  status: number | 'network' | 'timeout';
  /** Date.now() at the start of the attempt */
  at: number;
  ms: number;
  /** the body was the API's error envelope (see `isEnvelope`) */
  envelope: boolean;
  retryAfter: boolean;
}

export interface Operation<T = any> {
  path: string;
  key: string;
  body: unknown;
  attempts: Attempt[];
  /** the 2xx answer's body, once answered */
  answer?: T;
}

export interface CarefulClientOptions {
  baseUrl: string;
  headers: Record<string, string>;
  /** is this body the API's error envelope? */
  isEnvelope(body: any): boolean;
  /** is this 409 "the first request with this key is still running"? */
  inProgress(body: any): boolean;
  /** an attempt not answered by then is a `timeout` (and retried) */
  answerBoundMs: number;
  retryDelayMs: number;
  /** fail the run when an operation is still refused after this long (a fault lasts ~10 s): a stall shows its last answers instead of outliving the test */
  giveUpMs?: number;
}

export function carefulClient(o: CarefulClientOptions) {
  async function attempt(op: Operation): Promise<Attempt & { body?: any }> {
    const at = Date.now();
    try {
      const res = await fetch(o.baseUrl + op.path, {
        method: 'POST',
        headers: { ...o.headers, 'content-type': 'application/json', 'idempotency-key': op.key },
        body: JSON.stringify(op.body),
        signal: AbortSignal.timeout(o.answerBoundMs + 2000),
      });
      const body: any = await res.json().catch(() => undefined);
      return { status: res.status, at, ms: Date.now() - at, envelope: o.isEnvelope(body), retryAfter: res.headers.has('retry-after'), body };
    } catch (err: any) {
      return { status: err?.name === 'TimeoutError' ? 'timeout' : 'network', at, ms: Date.now() - at, envelope: false, retryAfter: false };
    }
  }

  /** Runs the operation until it is answered 2xx; throws on an answer a careful client does not retry. */
  async function run<T>(op: Operation<T>): Promise<T> {
    const since = Date.now();
    for (;;) {
      if (o.giveUpMs !== undefined && Date.now() - since > o.giveUpMs) {
        throw new Error(`${op.path} (${op.key}) still refused after ${o.giveUpMs} ms: ${JSON.stringify(op.attempts.slice(-3))}`);
      }
      const a = await attempt(op);
      const { body, ...kept } = a;
      op.attempts.push(kept);
      if (typeof a.status === 'number' && a.status >= 200 && a.status < 300) return (op.answer = body as T);
      const retryable =
        typeof a.status !== 'number' || a.status >= 500 || a.status === 429 || (a.status === 409 && o.inProgress(body));
      if (!retryable) throw new Error(`${op.path} (${op.key}) answered ${a.status}: ${JSON.stringify(body)}`);
      await sleep(o.retryDelayMs);
    }
  }

  return { attempt, run };
}

/** Every attempt that was not a 2xx. */
export const failuresOf = (ops: Operation[]): Attempt[] =>
  ops.flatMap((op) => op.attempts).filter((a) => !(typeof a.status === 'number' && a.status >= 200 && a.status < 300));

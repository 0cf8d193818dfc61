// The create load of the fault run (test/faults/dependencies-killed.test.ts): careful
// clients, as issue 18 describes them. Each create has an Idempotency-Key of its own; the
// same key is retried on network errors, 5xx, 429 and 409-in-progress until it is
// answered 201, and every attempt is kept for the assertions.

export interface Attempt {
  status: number | 'network' | 'timeout';
  ms: number;
  envelope: boolean;
  retryAfter: boolean;
}

export interface Create {
  key: string;
  title: string;
  id?: string;
  attempts: Attempt[];
}

export interface LoadOptions {
  baseUrl: string;
  token: string;
  workspaceId: string;
  playerId: string;
  /** how long a client waits for an answer before it counts the attempt as 'timeout' */
  answerTimeoutMs: number;
  /** a client's pause between two creates */
  pauseMs: number;
  /** bound in requests, beside the time bound of the phases */
  maxCreates: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function createLoad(o: LoadOptions) {
  const creates: Create[] = [];
  let on = true;

  async function attempt(c: Create): Promise<Attempt & { body?: any }> {
    const started = Date.now();
    try {
      const res = await fetch(`${o.baseUrl}/v1/tickets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${o.token}`, 'content-type': 'application/json', 'idempotency-key': c.key },
        body: JSON.stringify({ workspaceId: o.workspaceId, playerId: o.playerId, title: c.title, body: 'Fault run ticket' }),
        signal: AbortSignal.timeout(o.answerTimeoutMs),
      });
      const body: any = await res.json().catch(() => undefined);
      return { status: res.status, ms: Date.now() - started, envelope: !!body?.error?.code, retryAfter: res.headers.has('retry-after'), body };
    } catch (err: any) {
      const status = err?.name === 'TimeoutError' ? 'timeout' : 'network';
      return { status, ms: Date.now() - started, envelope: false, retryAfter: false };
    }
  }

  /** One careful client: a new key per create, the same key retried until it is answered. */
  async function client(n: number): Promise<void> {
    for (let i = 0; on && creates.length < o.maxCreates; i++) {
      const c: Create = { key: `faults-${n}-${i}`, title: `faults ${n}/${i}`, attempts: [] };
      creates.push(c);
      for (;;) {
        const a = await attempt(c);
        c.attempts.push(a);
        if (a.status === 201) {
          c.id = a.body.id;
          break;
        }
        const retryable =
          typeof a.status !== 'number' || a.status >= 500 || a.status === 429 || (a.status === 409 && a.body?.error?.code === 'idempotency_request_in_progress');
        if (!retryable) throw new Error(`create ${c.key} answered ${a.status}: ${JSON.stringify(a.body)}`);
        await sleep(250);
      }
      await sleep(o.pauseMs);
    }
  }

  /**
   * A create of its own (a key used once, no retry) until one is answered 201: how long
   * after `since` creates work again, and the id of that ticket.
   */
  async function probe(since: number): Promise<{ ms: number; id: string }> {
    for (let i = 0; ; i++) {
      const a = await attempt({ key: `probe-${since}-${i}`, title: `probe ${since}/${i}`, attempts: [] });
      if (a.status === 201) return { ms: Date.now() - since, id: a.body.id };
      await sleep(200);
    }
  }

  return {
    creates,
    probe,
    /** starts `clients` careful clients; resolves once they have stopped (after stop()) */
    run(clients: number): Promise<void> {
      return Promise.all(Array.from({ length: clients }, (_, n) => client(n))).then(() => undefined);
    },
    /** no new creates; a create in flight is still retried to its answer */
    stop(): void {
      on = false;
    },
  };
}

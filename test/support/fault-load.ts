// The create load of the ticketing fault run (test/faults/dependencies-killed.test.ts):
// careful clients, each creating tickets one after another with a pause between them.
// Every create is a careful-client operation
// (test/support/careful-client.ts): an Idempotency-Key of its own, the same key retried on
// network errors, 5xx, 429 and 409-in-progress until it is answered 201, every attempt kept.
import { carefulClient, type Operation } from './careful-client';
import { setTimeout as sleep } from 'node:timers/promises';

export interface CreateBody {
  workspaceId: string;
  playerId: string;
  title: string;
  body: string;
}

/** One create: `answer.id` is the acknowledged ticket's id. */
export type Create = Operation<{ id: string }> & { body: CreateBody };

export interface LoadOptions {
  baseUrl: string;
  token: string;
  workspaceId: string;
  playerId: string;
  /** an attempt not answered by then is a `timeout` (and retried) */
  answerBoundMs: number;
  /** a client's pause between two creates */
  pauseMs: number;
  /** bound in requests, beside the time bound of the phases */
  maxCreates: number;
}

/** A probe still refused this long after a restart fails the run (creates are back within seconds). */
const PROBE_GIVE_UP_MS = 90_000;

export function createLoad(o: LoadOptions) {
  const creates: Create[] = [];
  let on = true;
  const client = carefulClient({
    baseUrl: o.baseUrl,
    headers: { authorization: `Bearer ${o.token}` },
    isEnvelope: (body) => !!body?.error?.code,
    inProgress: (body) => body?.error?.code === 'idempotency_request_in_progress',
    answerBoundMs: o.answerBoundMs,
    retryDelayMs: 250,
  });
  const create = (key: string, title: string): Create => ({
    path: '/v1/tickets',
    key,
    body: { workspaceId: o.workspaceId, playerId: o.playerId, title, body: 'Fault run ticket' },
    attempts: [],
  });

  /** One careful client: a new key per create, the same key retried until it is answered. */
  async function loop(n: number): Promise<void> {
    for (let i = 0; on && creates.length < o.maxCreates; i++) {
      const c = create(`faults-${n}-${i}`, `faults ${n}/${i}`);
      creates.push(c);
      await client.run(c);
      await sleep(o.pauseMs);
    }
  }

  /**
   * A create of its own (a key used once, no retry) until one is answered 201: how long
   * after `since` creates work again, and the id of that ticket.
   */
  async function probe(since: number): Promise<{ ms: number; id: string }> {
    for (let i = 0; ; i++) {
      const a = await client.attempt(create(`probe-${since}-${i}`, `probe ${since}/${i}`));
      if (a.status === 201) return { ms: Date.now() - since, id: a.body.id };
      // creates are back within seconds of a restart: a probe still refused after this fails the run with what it got
      if (Date.now() - since > PROBE_GIVE_UP_MS) throw new Error(`creates still refused ${PROBE_GIVE_UP_MS} ms after the restart: last ${a.status} ${JSON.stringify(a.body)}`);
      await sleep(200);
    }
  }

  return {
    creates,
    probe,
    /** starts `clients` careful clients; resolves once they have stopped (after stop()) */
    run(clients: number): Promise<void> {
      return Promise.all(Array.from({ length: clients }, (_, n) => loop(n))).then(() => undefined);
    },
    /** no new creates; a create in flight is still retried to its answer */
    stop(): void {
      on = false;
    },
  };
}

// The platform ticket load of the ticketing fault run (test/faults/dependencies-killed.test.ts):
// careful clients that each take a ticket through its life on /platform/v1: create it
// (POST with an Idempotency-Key, retried with the same key until answered 201), resolve it
// (PATCH status resolved and priority high), close it (PATCH status closed), each PATCH
// retried with the same body until answered. Those three steps record the platform events
// ticket.created, ticket.updated + ticket.resolved, ticket.updated + ticket.closed, which
// the webhooks worker delivers to the run's platform endpoint.
//
// A PATCH has no Idempotency-Key (the platform API takes one on POSTs only); it sets values,
// so a retry after a lost answer applies nothing new (a status moved to itself records only
// another ticket.updated). The one exception is the close: once a lost answer's close has
// been applied, the ticket takes no more changes and the retry is a 409 `conflict`; after
// an earlier failed attempt, that 409 with the ticket read back closed is the close's
// acknowledgement.
import { setTimeout as sleep } from 'node:timers/promises';
import type { PlatformTenant } from '../../domain/platform/create-tenant';
import { carefulClient, type Attempt, type Operation } from './careful-client';

export type PlatformStep = 'create' | 'resolve' | 'close';

/** One acknowledged (or still running) operation of a client, with the ticket it is about. */
export type PlatformOp = Operation & { step: PlatformStep; ticketId?: string };

/** The platform event each step records and a receiver must get (beside ticket.updated for the PATCHes). */
export const EVENT_OF_STEP: Record<PlatformStep, string> = { create: 'ticket.created', resolve: 'ticket.resolved', close: 'ticket.closed' };

export interface PlatformLoadOptions {
  baseUrl: string;
  tenant: PlatformTenant;
  answerBoundMs: number;
  /** a client's pause between two operations */
  pauseMs: number;
  /** bound in tickets, beside the time bound of the phases */
  maxTickets: number;
}

export function createPlatformLoad(o: PlatformLoadOptions) {
  const ops: PlatformOp[] = [];
  let tickets = 0;
  let on = true;
  const GIVE_UP_MS = 90_000;
  const auth = { authorization: `Bearer ${o.tenant.adminToken}` };
  const client = carefulClient({
    baseUrl: o.baseUrl,
    headers: auth,
    isEnvelope: (body) => !!body?.error?.code,
    inProgress: (body) => body?.error?.code === 'idempotency_request_in_progress',
    answerBoundMs: o.answerBoundMs,
    retryDelayMs: 250,
    giveUpMs: GIVE_UP_MS,
  });

  /** The ticket's status as GET answers it (undefined when that fails: the caller goes on retrying). */
  async function statusOf(ticketId: string): Promise<string | undefined> {
    try {
      const res = await fetch(`${o.baseUrl}/platform/v1/tickets/${ticketId}`, { headers: auth, signal: AbortSignal.timeout(o.answerBoundMs + 2000) });
      return res.status === 200 ? ((await res.json()) as { status: string }).status : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * A PATCH retried with the same body until answered 200 (or a close found already
   * applied). Bounded: a change still refused after GIVE_UP_MS fails the run with its
   * last answer (an outage here lasts about 10 s), instead of retrying until the test's timeout.
   */
  async function patch(op: PlatformOp): Promise<void> {
    const since = Date.now();
    for (;;) {
      if (Date.now() - since > GIVE_UP_MS) {
        throw new Error(`PATCH ${op.path} ${JSON.stringify(op.body)} still refused after ${GIVE_UP_MS} ms: ${JSON.stringify(op.attempts.slice(-3))}`);
      }
      const at = Date.now();
      let a: Attempt;
      let body: any;
      try {
        const res = await fetch(o.baseUrl + op.path, {
          method: 'PATCH',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify(op.body),
          signal: AbortSignal.timeout(o.answerBoundMs + 2000),
        });
        body = await res.json().catch(() => undefined);
        a = { status: res.status, at, ms: Date.now() - at, envelope: !!body?.error?.code, retryAfter: res.headers.has('retry-after') };
      } catch (err: any) {
        a = { status: err?.name === 'TimeoutError' ? 'timeout' : 'network', at, ms: Date.now() - at, envelope: false, retryAfter: false };
      }
      const retried = op.attempts.length > 0;
      op.attempts.push(a);
      if (a.status === 200) return void (op.answer = body);
      const closedBefore = op.step === 'close' && retried && a.status === 409;
      if (closedBefore) {
        const status = await statusOf(op.ticketId!);
        if (status === 'closed') return void (op.answer = { id: op.ticketId, status });
        if (status !== undefined) throw new Error(`PATCH ${op.path} answered 409 and the ticket is ${status}: ${JSON.stringify(body)}`);
      } else if (typeof a.status === 'number' && a.status < 500 && a.status !== 429) throw new Error(`PATCH ${op.path} answered ${a.status}: ${JSON.stringify(body)}`);
      await sleep(250);
    }
  }

  async function loop(n: number): Promise<void> {
    for (let i = 0; on && tickets < o.maxTickets; i++) {
      tickets++;
      const subject = `platform faults ${n}/${i}`;
      const create: PlatformOp = {
        step: 'create',
        path: '/platform/v1/tickets',
        key: `platform-faults-${n}-${i}`,
        body: { subject, channel_id: o.tenant.channelIds.api, contact_email: `p${n}.${i}@example.com` },
        attempts: [],
      };
      ops.push(create);
      const ticket = await client.run<{ id: string }>(create);
      create.ticketId = ticket.id;
      // a ticket once begun is taken to its close, also after stop(): its events are all asserted
      for (const [step, change] of [
        ['resolve', { status: 'resolved', priority: 'high' }],
        ['close', { status: 'closed' }],
      ] as const) {
        await sleep(o.pauseMs);
        const op: PlatformOp = { step, path: `/platform/v1/tickets/${ticket.id}`, key: `${ticket.id}:${step}`, body: change, ticketId: ticket.id, attempts: [] };
        ops.push(op);
        await patch(op);
      }
      await sleep(o.pauseMs);
    }
  }

  return {
    ops,
    /** starts `clients` careful clients; resolves once they have stopped (after stop()) and closed their last ticket */
    run(clients: number): Promise<void> {
      return Promise.all(Array.from({ length: clients }, (_, n) => loop(n))).then(() => undefined);
    },
    stop(): void {
      on = false;
    },
  };
}

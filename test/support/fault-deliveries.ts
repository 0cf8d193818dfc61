// What the fault run's webhook receiver got, per ticket (test/faults/dependencies-killed.test.ts).
//
// "One signed delivery per ticket", read with the code: a ticket's `ticket.created` event
// has one delivery per subscribed endpoint (a `webhook_deliveries` row, `evt_…` id). That
// id is the envelope's `id` and the `webhook-id` header, the same on every attempt, and
// the bytes are the same too (docs/webhooks.md). A worker that dies after a POST and
// before the attempt is recorded sends that attempt again: a REPEAT of the same delivery,
// which receivers deduplicate on the id (at least once, as the spec allows). So per
// ticket: exactly one distinct delivery id received, every request of it verified with
// the endpoint's secret and byte-identical; the repeats are counted and reported.
import type { Delivered } from './webhook-receiver';

export interface DeliveryCount {
  /** tickets that received no delivery */
  missing: string[];
  /** tickets that received more than one distinct delivery id (two deliveries of one event, or two events) */
  doubled: Array<{ ticketId: string; deliveryIds: string[] }>;
  /** delivery ids received more than once, with their requests in order */
  repeated: Map<string, Delivered[]>;
  /** requests beyond the first of their delivery id */
  repeats: number;
  /** a request whose envelope id, event or bytes disagree with the first of its delivery id */
  inconsistent: string[];
  /** ticket id → the one delivery id it received */
  deliveryOf: Map<string, string>;
}

/** Counts the `ticket.created` deliveries `accepted` (verified requests) holds for `ticketIds`. */
export function countDeliveries(accepted: Delivered[], ticketIds: string[]): DeliveryCount {
  const firstOf = new Map<string, Delivered>();
  const requestsOf = new Map<string, Delivered[]>();
  const idsOfTicket = new Map<string, Set<string>>();
  const inconsistent: string[] = [];
  for (const d of accepted) {
    if (d.envelope?.event !== 'ticket.created') continue;
    const first = firstOf.get(d.id);
    if (!first) firstOf.set(d.id, d);
    else if (first.raw !== d.raw) inconsistent.push(`${d.id}: a repeat with other bytes`);
    if (d.envelope.id !== d.id) inconsistent.push(`${d.id}: envelope id ${d.envelope.id}`);
    requestsOf.set(d.id, [...(requestsOf.get(d.id) ?? []), d]);
    const ticketId = String(d.envelope.data?.id);
    idsOfTicket.set(ticketId, (idsOfTicket.get(ticketId) ?? new Set()).add(d.id));
  }
  const repeated = new Map([...requestsOf].filter(([, rs]) => rs.length > 1));
  const deliveryOf = new Map<string, string>();
  const doubled: DeliveryCount['doubled'] = [];
  for (const id of ticketIds) {
    const ids = [...(idsOfTicket.get(id) ?? [])];
    if (ids.length === 1) deliveryOf.set(id, ids[0]);
    if (ids.length > 1) doubled.push({ ticketId: id, deliveryIds: ids });
  }
  return {
    missing: ticketIds.filter((id) => !idsOfTicket.has(id)),
    doubled,
    repeated,
    repeats: [...repeated.values()].reduce((sum, rs) => sum + rs.length - 1, 0),
    inconsistent,
    deliveryOf,
  };
}

/** Whether the receiver has accepted a `ticket.created` delivery of this ticket. */
export function deliveredTicket(accepted: Delivered[], ticketId: string): boolean {
  return accepted.some((d) => d.envelope?.event === 'ticket.created' && d.envelope.data?.id === ticketId);
}

/**
 * Which fault each repeat is down to: the first one killed after the first request of its
 * delivery id was sent (give or take the second that bytes sent by a killed process may
 * still take) and before the repeat arrived, i.e. the fault that caught the attempt in
 * flight; 'no fault' if none. Printed with the run's figures.
 */
export function repeatsByFault(repeated: DeliveryCount['repeated'], killedAt: Array<{ fault: string; at: number }>): Record<string, number> {
  const byFault: Record<string, number> = {};
  for (const requests of repeated.values()) {
    for (const r of requests.slice(1)) {
      const cause = killedAt.find((k) => k.at >= requests[0].receivedAt - 1000 && k.at <= r.receivedAt);
      const name = cause?.fault ?? 'no fault';
      byFault[name] = (byFault[name] ?? 0) + 1;
    }
  }
  return byFault;
}

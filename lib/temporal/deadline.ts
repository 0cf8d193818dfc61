// Temporal calls made while an HTTP request waits for them. The client's own deadline
// (withDeadline: DEADLINE_EXCEEDED) is not a bound on the answer: its retries of an
// unavailable server back off past it (the last sleep alone can take 4 s). So the call is
// also raced against a hard bound a second after the deadline; past it the request gets
// TemporalDeadlineExceeded (a 503, api/kit/dependency-errors.ts) and the call is left to
// finish or fail on its own.
import type { Client } from '@temporalio/client';

/**
 * The one deadline of the Temporal calls a request waits for (api/kit/workflow-update.ts,
 * api/push/apps/gateway.ts). All the calls of one request share it (requestDeadline), so
 * they end within 7 s of the first (this, plus withinDeadline's second). That leaves 3 s
 * of the 10 s every answer must keep for the request's database reads on a loaded
 * machine: authentication, the row before the change, the outbox look-up and the row
 * the answer shows (or the row an ended workflow is answered from).
 */
export const REQUEST_DEADLINE_MS = 6000;

export class TemporalDeadlineExceeded extends Error {
  constructor(ms: number) {
    super(`Temporal did not answer within ${ms} ms`);
    this.name = 'TemporalDeadlineExceeded';
  }
}

/** fn's Temporal calls under a deadline of `ms`, its answer within `ms` + 1 s. */
export async function withinDeadline<R>(client: Client, ms: number, fn: () => Promise<R>): Promise<R> {
  const call = client.withDeadline(Date.now() + ms, fn);
  call.catch(() => undefined); // a failure after the give-up is nobody's to handle
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TemporalDeadlineExceeded(ms + 1000)), ms + 1000);
  });
  try {
    return await Promise.race([call, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * One request's Temporal budget: every call made through the returned function ends by
 * the same moment (`ms` from now), so two calls in a row (an Update, then an
 * update-with-start) never take twice the deadline.
 */
export function requestDeadline(client: Client, ms = REQUEST_DEADLINE_MS): <R>(fn: () => Promise<R>) => Promise<R> {
  const end = Date.now() + ms;
  return (fn) => withinDeadline(client, Math.max(end - Date.now(), 0), fn);
}

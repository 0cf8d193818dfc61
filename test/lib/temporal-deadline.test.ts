// withinDeadline (lib/temporal/deadline.ts): a Temporal call that never answers (the
// client retrying an unavailable server past its own deadline) still ends a second after
// the deadline, as a dependency failure (503), and an answer in time passes through.
import assert from 'node:assert/strict';
import type { Client } from '@temporalio/client';
import { isDependencyDown } from '../../api/kit/dependency-errors';
import { requestDeadline, TemporalDeadlineExceeded, withinDeadline } from '../../lib/temporal/deadline';

/** the client's withDeadline, as far as withinDeadline uses it; it records each deadline asked for */
const deadlines: number[] = [];
const client = {
  withDeadline: <R>(deadline: number, fn: () => Promise<R>) => {
    deadlines.push(deadline);
    return fn();
  },
} as unknown as Client;

test('a call that never answers ends a second after its deadline as a dependency failure', async () => {
  const err = await withinDeadline(client, 50, () => new Promise<never>(() => undefined)).catch((e: unknown) => e);
  assert.ok(err instanceof TemporalDeadlineExceeded, String(err));
  assert.equal(isDependencyDown(err), true);
});

test('an answer in time, and a failure in time, pass through as they are', async () => {
  assert.equal(await withinDeadline(client, 50, async () => 'ok'), 'ok');
  const boom = new Error('boom');
  assert.equal(await withinDeadline(client, 50, () => Promise.reject(boom)).catch((e: unknown) => e), boom);
});

test("a request's calls share one deadline: a second call gets what the first left, not a fresh one", async () => {
  deadlines.length = 0;
  const within = requestDeadline(client, 300);
  const end = Date.now() + 300;
  await within(() => new Promise((r) => setTimeout(r, 100)));
  await within(async () => 'second');
  assert.equal(deadlines.length, 2);
  for (const d of deadlines) assert.ok(Math.abs(d - end) < 50, `deadline ${d - end} ms off the request's`);
  // once the budget is spent, a call still ends a second later at the most
  const spent = requestDeadline(client, 0);
  const began = Date.now();
  const err = await spent(() => new Promise<never>(() => undefined)).catch((e: unknown) => e);
  assert.ok(err instanceof TemporalDeadlineExceeded);
  assert.ok(Date.now() - began < 1_500);
});

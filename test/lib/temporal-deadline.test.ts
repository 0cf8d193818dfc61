// withinDeadline (lib/temporal/deadline.ts): a Temporal call that never answers (the
// client retrying an unavailable server past its own deadline) still ends a second after
// the deadline, as a dependency failure (503), and an answer in time passes through.
import assert from 'node:assert/strict';
import type { Client } from '@temporalio/client';
import { isDependencyDown } from '../../api/kit/dependency-errors';
import { TemporalDeadlineExceeded, withinDeadline } from '../../lib/temporal/deadline';

/** the client's withDeadline, as far as withinDeadline uses it */
const client = { withDeadline: <R>(_deadline: number, fn: () => Promise<R>) => fn() } as unknown as Client;

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

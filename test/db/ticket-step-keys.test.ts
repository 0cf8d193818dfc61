// The step log's rules at the domain command (domain/tickets/apply-change.ts,
// docs/tickets.md "Step keys"), on real PostgreSQL: a key already logged is answered as
// stored, a number another key holds is `taken`, a new key is applied and logged, and a
// request without a key keeps the number-only rule. The reorder of a lost workflow task
// (A stored as n; on retry B asks for n first) ends with each change applied once.
import assert from 'node:assert/strict';
import { connectDb, type Db } from '../../db/db';
import { findTicket } from '../../db/repositories/tickets';
import { applyTicketChange } from '../../domain/tickets/apply-change';
import { storeNewTicket } from '../../domain/tickets/store-new-ticket';
import type { ApplyChangeRequest, LifecycleChange } from '../../domain/tickets/types';
import { loadConfig } from '../../lib/config';
import { newId } from '../../lib/ids';
import { createAgent, createPlayer, createTenant } from '../support/factories';

let db: Db;
beforeAll(async () => {
  db = await connectDb(loadConfig().databaseUrl, 3);
});
afterAll(async () => {
  await db?.close();
});

async function newTicket(): Promise<{ ticketId: string; agentId: string; playerId: string }> {
  const { org, workspace } = await createTenant(db);
  const player = await createPlayer(db, workspace.id);
  const agent = await createAgent(db, workspace.id);
  const ticketId = newId('tkt');
  await db.transaction((c) =>
    storeNewTicket(c, {
      ticketId,
      workspaceId: workspace.id,
      organizationId: org.id,
      playerRef: player.id,
      playerId: player.playerId,
      title: 'Lost my items',
      body: 'After the update my inventory is empty.',
      category: null,
      priority: 'medium',
      source: 'api',
      tags: [],
      metadata: {},
      createdAt: new Date().toISOString(),
    }),
  );
  return { ticketId, agentId: agent.id, playerId: player.playerId };
}

const at = new Date().toISOString();
const apply = (ticketId: string, version: number, change: LifecycleChange, key?: string) =>
  applyTicketChange(db, { ticketId, version, at, change, actor: null, ...(key ? { key } : {}) } as ApplyChangeRequest);
const log = async (ticketId: string) =>
  (await db.query('SELECT version, step_key AS key FROM ticket_steps WHERE ticket_id = $1 ORDER BY version', [ticketId])).rows;
const events = async (ticketId: string) =>
  (await db.query('SELECT type FROM events WHERE subject_id = $1 AND type <> $2 ORDER BY occurred_at, id', [ticketId, 'ticket.created'])).rows.map(
    (r: { type: string }) => r.type,
  );
const rowOf = async (ticketId: string) => {
  const t = (await findTicket(db, ticketId)) as (Awaited<ReturnType<typeof findTicket>> & { version: number }) | null;
  return t && { version: t.version, status: t.status, assigneeId: t.assigneeId, messageCount: t.messageCount };
};

test('the reorder of a lost task: B finds its number taken, is stored next, and A is answered as stored, applied once', async () => {
  const { ticketId, agentId, playerId } = await newTicket();
  const a: LifecycleChange = { kind: 'assign', agentId };
  const b: LifecycleChange = { kind: 'message', messageId: newId('msg'), authorType: 'player', authorId: playerId, body: 'Any news?' };

  // the lost task stored A as step 2
  assert.deepEqual((await apply(ticketId, 2, a, 'update:a'))?.version, 2);
  // the retried task runs B first, as step 2: the number is A's
  const taken = await apply(ticketId, 2, b, 'update:b');
  assert.equal(taken?.taken, true);
  assert.equal(taken?.version, 2);
  assert.equal(taken?.facts.assigneeId, agentId, 'the facts of the row as A left it');
  assert.deepEqual(taken?.keys, ['update:a'], 'the changes stored from step 2 on, which will ask again');
  assert.deepEqual(await rowOf(ticketId), { version: 2, status: 'in_progress', assigneeId: agentId, messageCount: 0 }, 'B not applied');
  // B asks again with the next number
  const stored = await apply(ticketId, 3, b, 'update:b');
  assert.deepEqual([stored?.version, stored?.taken, stored?.storedAs], [3, undefined, undefined]);
  // then A, as step 4: its key is logged as step 2, so nothing is applied
  const again = await apply(ticketId, 4, a, 'update:a');
  assert.deepEqual([again?.version, again?.storedAs, again?.taken], [3, 2, undefined]);
  assert.equal(again?.facts.assigneeId, agentId);

  assert.deepEqual(await rowOf(ticketId), { version: 3, status: 'in_progress', assigneeId: agentId, messageCount: 1 });
  assert.deepEqual(await events(ticketId), ['ticket.assigned', 'message.created']);
  assert.deepEqual(await log(ticketId), [
    { version: 2, key: 'update:a' },
    { version: 3, key: 'update:b' },
  ]);
  const audit = (await db.query('SELECT action FROM ticket_audit WHERE ticket_id = $1', [ticketId])).rows;
  assert.deepEqual(audit.map((r: { action: string }) => r.action), ['assign']);
});

test('a retry of the same keyed step is answered as stored; a gap is still a version conflict', async () => {
  const { ticketId } = await newTicket();
  const change: LifecycleChange = { kind: 'patch', priority: 'high' };
  assert.equal((await apply(ticketId, 2, change, 'update:p'))?.version, 2);
  const retry = await apply(ticketId, 2, change, 'update:p');
  assert.deepEqual([retry?.version, retry?.storedAs, retry?.taken], [2, 2, undefined]);
  await assert.rejects(apply(ticketId, 4, { kind: 'patch', priority: 'low' }, 'update:q'), { name: 'DomainError', code: 'version_conflict' } as object);
  assert.equal((await rowOf(ticketId))?.version, 2);
  assert.equal((await db.query('SELECT 1 FROM ticket_audit WHERE ticket_id = $1', [ticketId])).rowCount, 1);
});

test('without a key: the number-only rule of before, and no log row', async () => {
  const { ticketId } = await newTicket();
  assert.equal((await apply(ticketId, 2, { kind: 'patch', priority: 'high' }))?.version, 2);
  // another change asking for step 2 is answered as stored (the old rule: assumed a retry)
  const answer = await apply(ticketId, 2, { kind: 'patch', priority: 'low' });
  assert.deepEqual(answer, { version: 2, facts: answer!.facts });
  assert.equal(answer!.facts.priority, 'high');
  assert.deepEqual(await log(ticketId), []);
  await assert.rejects(apply(ticketId, 4, { kind: 'patch', priority: 'low' }), { code: 'version_conflict' } as object);
});

test('a number stored before the log (no key to compare) is answered by the old rule, not `taken`', async () => {
  const { ticketId } = await newTicket();
  // step 2 stored by a run before the step log: the same change may be asking again
  await apply(ticketId, 2, { kind: 'patch', priority: 'high' });
  const answer = await apply(ticketId, 2, { kind: 'patch', priority: 'high' }, 'update:x');
  assert.deepEqual([answer?.version, answer?.taken, answer?.storedAs], [2, undefined, undefined]);
  assert.deepEqual(await log(ticketId), []);
  // the next keyed step is logged; from then on its number is known
  await apply(ticketId, 3, { kind: 'patch', priority: 'urgent' }, 'update:y');
  assert.equal((await apply(ticketId, 3, { kind: 'patch', priority: 'low' }, 'update:z'))?.taken, true);
});

test('a keyed delete removes the row and its log; asking again finds nothing to delete', async () => {
  const { ticketId } = await newTicket();
  await apply(ticketId, 2, { kind: 'patch', priority: 'high' }, 'update:p');
  assert.equal(await apply(ticketId, 3, { kind: 'delete' }, 'update:d'), null);
  assert.equal(await rowOf(ticketId), null);
  assert.deepEqual(await log(ticketId), []);
  assert.equal(await apply(ticketId, 3, { kind: 'delete' }, 'update:d'), null);
});

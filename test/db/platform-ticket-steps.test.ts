// The step keys of a platform ticket's steps (docs/platform.md, "Step keys";
// domain/platform/step-log.ts) on real PostgreSQL, by the activity's domain function: a
// key already logged is answered as stored; a number stored by another change is `taken`
// with the row's facts, nothing applied; otherwise applied and logged in the step's
// transaction; a request without a key, or for a number stored without one, keeps the
// numbers-only answers; `onlyIfStored` applies nothing. The reorder of a
// lost workflow task: A stored as n, B asking for n is taken and stored as n + 1, A asking
// again (as n + 2) is answered as stored, applied and recorded once.
import assert from 'node:assert/strict';
import { connectDb, type Db } from '../../db/db';
import { findPlatformTicket } from '../../db/repositories/platform-tickets';
import { applyPlatformTicketChange } from '../../domain/platform/apply-ticket-change';
import { createPlatformAutomation } from '../../domain/platform/create-automation';
import { createPlatformTenant, type PlatformTenant } from '../../domain/platform/create-tenant';
import { createPlatformTicket } from '../../domain/platform/create-ticket';
import { purgePlatformTicket } from '../../domain/platform/purge-ticket';
import type { PlatformTicketApplied, PlatformTicketChange, PlatformTicketStepResult } from '../../domain/platform/ticket-step';
import { DomainError } from '../../domain/errors';
import { loadConfig } from '../../lib/config';
import { newId } from '../../lib/ids';
import { tenantAdmin } from '../support/platform-ticket-suite';

let db: Db;
let tenant: PlatformTenant;

beforeAll(async () => {
  db = await connectDb(loadConfig().databaseUrl, 3);
  tenant = await createPlatformTenant(db, { name: `Step keys ${process.pid} ${newId('req')}` });
});
afterAll(async () => {
  await db?.close();
});

/** A stored ticket (version 1), as the API writes it; no workflow: the steps are applied here. */
async function ticket(): Promise<string> {
  const ticketId = newId('tkt');
  await db.transaction((m) =>
    createPlatformTicket(m, tenantAdmin(tenant), {
      ticketId, environment: 'test', channelId: tenant.channelIds.email, subject: 'Steps', body: 'text',
      contactEmail: 'p@example.com', priority: 'normal', assigneeId: null, tags: [], now: new Date(),
    }),
  );
  return ticketId;
}

const apply = (ticketId: string, version: number, change: PlatformTicketChange, key?: string) =>
  applyPlatformTicketChange(db, { ticketId, version, at: new Date().toISOString(), change, ...(key === undefined ? {} : { key }) });
const row = async (id: string) => (await findPlatformTicket(db, id))!;
const log = async (id: string) =>
  (await db.query(`SELECT version, step_key FROM platform_ticket_steps WHERE ticket_id = $1 ORDER BY version`, [id])).rows.map((r) => [r.version, r.step_key]);
/** The ticket's events after its create: [type, step] in step order. */
async function events(id: string): Promise<Array<[string, string]>> {
  const { rows } = await db.query(`SELECT type, dedupe_key FROM events WHERE subject_id = $1 AND type <> 'ticket.created' ORDER BY dedupe_key`, [id]);
  return rows.map((r) => [r.type, r.dedupe_key.split(':')[2]]);
}
const version = (r: PlatformTicketStepResult) => ('version' in r ? r.version : null);

test('the reorder of a lost task: A as n; B asking for n is taken, stored as n + 1; A asking again (n + 2) is answered as stored, applied once', async () => {
  const id = await ticket();
  const a: PlatformTicketChange = { kind: 'patch', priority: 'high' };
  const b: PlatformTicketChange = { kind: 'patch', tags: ['b'] };

  // applied now: the facts, and what follows a patch (domain/platform/step-follow-ups.ts): no rule, the deadlines of its new priority
  const { followUps, ...facts } = (await apply(id, 2, a, 'update:a')) as PlatformTicketApplied;
  assert.deepEqual(facts, { version: 2, status: 'open', assigneeId: null, purgeAt: null });
  assert.deepEqual(followUps?.automations, []);
  assert.equal(followUps?.sla && 'priority' in followUps.sla ? followUps.sla.priority : null, 'high');
  // B meets A's number: nothing applied, the row's facts, taken
  assert.deepEqual(await apply(id, 2, b, 'update:b'), { version: 2, status: 'open', assigneeId: null, purgeAt: null, taken: true });
  assert.deepEqual((await row(id)).tags, []);
  assert.equal(version(await apply(id, 3, b, 'update:b')), 3);
  // A again, with the next number: applied already under its key
  const again = await apply(id, 4, a, 'update:a');
  assert.deepEqual(again, { version: 3, status: 'open', assigneeId: null, purgeAt: null }, 'as stored: the current facts, not taken');
  // A's plain retry at its own number, and B's: as stored too
  assert.deepEqual(await apply(id, 2, a, 'update:a'), again);
  assert.deepEqual(await apply(id, 3, b, 'update:b'), again);

  const r = await row(id);
  assert.equal(r.version, 3);
  assert.equal(r.priority, 'high');
  assert.deepEqual(r.tags, ['b']);
  assert.deepEqual(await log(id), [[2, 'update:a'], [3, 'update:b']]);
  assert.deepEqual(await events(id), [['ticket.updated', '2'], ['ticket.updated', '3']], 'one set of events each');
});

test('a taken number applies nothing even when the change would apply (a resolve meeting a close)', async () => {
  const id = await ticket();
  await apply(id, 2, { kind: 'patch', status: 'closed' }, 'update:first');
  const taken = await apply(id, 2, { kind: 'patch', status: 'resolved' }, 'update:second');
  assert.deepEqual(taken, { version: 2, status: 'closed', assigneeId: null, purgeAt: null, taken: true });
  assert.equal((await row(id)).resolvedAt, null);
  assert.deepEqual(await events(id), [['ticket.closed', '2'], ['ticket.updated', '2']]);
});

test('a gap is still the conflict; a key is logged only with its step', async () => {
  const id = await ticket();
  await assert.rejects(apply(id, 3, { kind: 'patch', priority: 'low' }, 'update:early'), (err: DomainError) => err.code === 'conflict' && /at step 1; step 3/.test(err.message));
  assert.deepEqual(await log(id), []);
  assert.equal(version(await apply(id, 2, { kind: 'patch', priority: 'low' }, 'update:early')), 2);
  assert.deepEqual(await log(id), [[2, 'update:early']]);
});

test('without a key: numbers only, as before (a stored number answers as stored, nothing logged)', async () => {
  const id = await ticket();
  assert.equal(version(await apply(id, 2, { kind: 'patch', priority: 'high' })), 2);
  // another change asking for the stored number: answered as stored, not taken (the old rule)
  assert.deepEqual(await apply(id, 2, { kind: 'patch', tags: ['lost'] }), { version: 2, status: 'open', assigneeId: null, purgeAt: null });
  const r = await row(id);
  assert.deepEqual(r.tags, []);
  assert.deepEqual(await log(id), []);
});

test('a number stored without a key (a task of the older code lost at a deploy): a keyed request for it keeps the numbers-only answer', async () => {
  const id = await ticket();
  assert.equal(version(await apply(id, 2, { kind: 'patch', priority: 'high' })), 2);
  // the retried task, now keyed, asks again for its step: as stored, not taken (taken would apply it twice)
  assert.deepEqual(await apply(id, 2, { kind: 'patch', priority: 'high' }, 'update:a'), { version: 2, status: 'open', assigneeId: null, purgeAt: null });
  assert.deepEqual(await log(id), []);
  // from the next keyed step on, the log answers
  assert.equal(version(await apply(id, 3, { kind: 'patch', tags: ['b'] }, 'update:b')), 3);
  assert.deepEqual(await apply(id, 3, { kind: 'patch', tags: ['c'] }, 'update:c'), { version: 3, status: 'open', assigneeId: null, purgeAt: null, taken: true });
  assert.deepEqual(await events(id), [['ticket.updated', '2'], ['ticket.updated', '3']]);
});

test('onlyIfStored applies nothing: as stored when its key made a step, else taken', async () => {
  const id = await ticket();
  await apply(id, 2, { kind: 'delete' }, 'update:a');
  const ask = (key: string) => applyPlatformTicketChange(db, { ticketId: id, version: 3, at: new Date().toISOString(), change: { kind: 'delete' }, key, onlyIfStored: true });
  const facts = { version: 2, status: 'open', assigneeId: null };
  assert.deepEqual({ ...(await ask('update:a')), purgeAt: undefined }, { ...facts, purgeAt: undefined });
  assert.deepEqual({ ...(await ask('update:z')), purgeAt: undefined }, { ...facts, purgeAt: undefined, taken: true });
  assert.equal((await row(id)).version, 2);
  assert.deepEqual(await log(id), [[2, 'update:a']]);
  assert.deepEqual(await events(id), [['ticket.updated', '2']]);
});

test("a rule's keyed step: logged once; another rule meeting its number is taken; asked again, answered as stored with one automation.fired", async () => {
  const id = await ticket();
  const rule = (value: string) =>
    createPlatformAutomation(db, tenantAdmin(tenant), {
      automationId: newId('aut'), workspaceId: tenant.workspaceId, environment: 'test', name: `Tag ${value} ${id}`, trigger: 'ticket.updated',
      conditions: [{ field: 'subject', operator: 'equals', value: `only ${id}` }], actions: [{ type: 'add_tag', value }], active: true, now: new Date(),
    });
  await db.query(`UPDATE platform_tickets SET subject = $2 WHERE id = $1`, [id, `only ${id}`]);
  const [x, y] = [await rule('x'), await rule('y')];
  const step = (v: number, automationId: string) => apply(id, v, { kind: 'automation', automationId, trigger: 'ticket.updated' }, `automation:${automationId}:update:o`);
  assert.equal(version(await step(2, x.id)), 2);
  assert.deepEqual(await step(2, y.id), { version: 2, status: 'open', assigneeId: null, purgeAt: null, taken: true });
  assert.equal(version(await step(3, y.id)), 3);
  assert.deepEqual(await step(4, x.id), { version: 3, status: 'open', assigneeId: null, purgeAt: null });
  assert.deepEqual((await row(id)).tags, ['x', 'y']);
  const fired = await db.query(`SELECT data->>'automation_id' AS id FROM events WHERE subject_id = $1 AND type = 'automation.fired' ORDER BY dedupe_key`, [id]);
  assert.deepEqual(fired.rows.map((r) => r.id), [x.id, y.id]);
  await db.query(`DELETE FROM platform_automations WHERE id = ANY($1)`, [[x.id, y.id]]);
});

test("the log goes with its ticket (the purge's delete cascades)", async () => {
  const id = await ticket();
  await apply(id, 2, { kind: 'delete' }, 'update:del');
  assert.deepEqual(await log(id), [[2, 'update:del']]);
  assert.equal(await purgePlatformTicket(db, id), 'purged');
  assert.deepEqual(await log(id), []);
});

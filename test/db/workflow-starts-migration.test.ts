// Migration WorkflowStarts moves the pending starts of the ticket outbox into the one
// workflow-start outbox (with the search attributes the ticket dispatcher added), gives
// every push send still `queued` an entry, and its `down` brings the ticket outbox back
// with the pending ticket starts. Run in a schema of this test's own, on the migrations
// before it.
import assert from 'node:assert/strict';
import { DataSource } from 'typeorm';
import { createDataSource, MIGRATIONS } from '../../db/data-source';
import { WorkflowStarts1732190000001 } from '../../db/migrations/1732190000001-WorkflowStarts';

const schema = `workflow_starts_mig_${process.pid}_${Date.now()}`;
let admin: DataSource;
let db: DataSource;

beforeAll(async () => {
  admin = await createDataSource(process.env.DATABASE_URL!, 1).initialize();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const base = createDataSource(process.env.DATABASE_URL!, 1);
  const before = MIGRATIONS.slice(0, MIGRATIONS.indexOf(WorkflowStarts1732190000001));
  db = new DataSource({ ...base.options, migrations: before, extra: { max: 1, options: `-c search_path=${schema}` } } as typeof base.options);
  await db.initialize();
  await db.runMigrations({ transaction: 'each' });
});
afterAll(async () => {
  await db?.destroy();
  await admin?.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await admin?.destroy();
});

const input = (ticketId: string, searchAttributes: boolean) => ({
  ticketId,
  workspaceId: 'ws_1',
  organizationId: 'org_1',
  playerRef: 'kpl_1',
  playerId: 'p1',
  title: 'Crash',
  body: 'x',
  category: null,
  priority: 'high',
  source: 'api',
  tags: [],
  metadata: {},
  createdAt: '2026-11-25T10:00:00.000Z',
  searchAttributes,
  stored: true,
});

test('up moves pending ticket starts and queued sends; down restores the ticket outbox', async () => {
  const sendId = '0b8f5f4e-8c1e-4c39-9a55-3f4f2f0c1a01';
  const doneSendId = '0b8f5f4e-8c1e-4c39-9a55-3f4f2f0c1a02';
  // the rows only need to exist: no foreign keys are checked while they are written
  await db.transaction(async (m) => {
    await m.query(`SET LOCAL session_replication_role = replica`);
    for (const id of ['tkt_a', 'tkt_b']) {
      await m.query(
        `INSERT INTO tickets (id, workspace_id, player_id, title, body, status, priority, priority_rank, source, created_at, updated_at)
         VALUES ($1, 'ws_1', 'p1', 'Crash', 'x', 'open', 'high', 3, 'api', now(), now())`,
        [id],
      );
    }
    await m.query(`INSERT INTO ticket_workflow_starts (ticket_id, input) VALUES ('tkt_a', $1::jsonb), ('tkt_b', $2::jsonb)`, [
      JSON.stringify(input('tkt_a', true)),
      JSON.stringify(input('tkt_b', false)),
    ]);
    await m.query(`INSERT INTO push_sends (id, app_id, title, body) VALUES ($1, $1, 't', 'b')`, [sendId]);
    await m.query(`INSERT INTO push_sends (id, app_id, title, body, status) VALUES ($1, $1, 't', 'b', 'done')`, [doneSendId]);
  });

  const runner = db.createQueryRunner();
  try {
    await new WorkflowStarts1732190000001().up(runner);
    const rows = await runner.query(
      `SELECT workflow_id, workflow_type, task_queue, args, search_attributes, memo, claimed_at FROM workflow_starts ORDER BY workflow_id`,
    );
    assert.deepEqual(rows, [
      { workflow_id: `push-send/${sendId}`, workflow_type: 'pushSendWorkflow', task_queue: 'push', args: [{ sendId }], search_attributes: null, memo: null, claimed_at: null },
      {
        workflow_id: 'ticket/tkt_a',
        workflow_type: 'ticketWorkflow',
        task_queue: 'ticketing',
        args: [input('tkt_a', true)],
        search_attributes: { WorkspaceId: ['ws_1'], TicketStatus: ['open'], TicketPriority: ['high'] },
        memo: null,
        claimed_at: null,
      },
      { workflow_id: 'ticket/tkt_b', workflow_type: 'ticketWorkflow', task_queue: 'ticketing', args: [input('tkt_b', false)], search_attributes: null, memo: null, claimed_at: null },
    ]);
    const old = await runner.query(`SELECT to_regclass('ticket_workflow_starts') AS t`);
    assert.equal(old[0].t, null);

    await new WorkflowStarts1732190000001().down(runner);
    const restored = await runner.query(`SELECT ticket_id, input FROM ticket_workflow_starts ORDER BY ticket_id`);
    assert.deepEqual(restored, [
      { ticket_id: 'tkt_a', input: input('tkt_a', true) },
      { ticket_id: 'tkt_b', input: input('tkt_b', false) },
    ]);
    assert.equal((await runner.query(`SELECT to_regclass('workflow_starts') AS t`))[0].t, null);
    // and up again, as a redeploy does
    await new WorkflowStarts1732190000001().up(runner);
    assert.equal((await runner.query(`SELECT count(*)::int AS n FROM workflow_starts`))[0].n, 3);
  } finally {
    await runner.release();
  }
});

// The entities (db/entities) and the hand-written migrations describe the same schema:
// on a database the migrations built, what `typeorm migration:generate` would emit is
// empty, and every table and index of the migrations is declared by an entity (indexes
// TypeORM cannot express are declared by name with synchronize:false; docs/data.md).
// The migrations run into a schema of this test's own, so other tests that change the
// shared test schema for a moment (tickets-create-failures adds a refusing CHECK) cannot
// make it flaky.
import assert from 'node:assert/strict';
import { DataSource } from 'typeorm';
import { createDataSource } from '../../db/data-source';

const schema = `entities_check_${process.pid}_${Date.now()}`;
let admin: DataSource;
let migrated: DataSource;

beforeAll(async () => {
  admin = await createDataSource(process.env.DATABASE_URL!, 1).initialize();
  await admin.query(`CREATE SCHEMA ${schema}`);
  const base = createDataSource(process.env.DATABASE_URL!, 1);
  migrated = new DataSource({ ...base.options, extra: { max: 1, options: `-c search_path=${schema}` } } as typeof base.options);
  await migrated.initialize();
  await migrated.runMigrations({ transaction: 'each' });
});
afterAll(async () => {
  await migrated?.destroy();
  await admin?.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await admin?.destroy();
});

// TypeORM's own bookkeeping, not part of the model
const NOT_MODELLED = new Set(['schema_migrations', 'typeorm_metadata']);

describe('entities and migrations', () => {
  test('the migrations ran into this test schema', async () => {
    const [{ current }] = await migrated.query('SELECT current_schema() AS current');
    assert.equal(current, schema);
  });

  test('migration:generate against the migrated database has nothing to emit', async () => {
    const log = await migrated.driver.createSchemaBuilder().log();
    assert.deepEqual(
      log.upQueries.map((q) => q.query),
      [],
      'the entities and the migrations disagree: fix the entity, or write a migration',
    );
  });

  test('every table has an entity and every entity a table', async () => {
    const rows: Array<{ name: string }> = await migrated.query(
      `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`,
    );
    const tables = rows.map((r) => r.name).filter((n) => !NOT_MODELLED.has(n)).sort();
    const entities = migrated.entityMetadatas.map((m) => m.tableName).sort();
    assert.deepEqual(entities, tables);
  });

  test('every index of the migrations is declared by its entity, by name', async () => {
    // indexes that back a primary key or a unique constraint are declared as those
    const rows: Array<{ table: string; index: string }> = await migrated.query(
      `SELECT i.tablename AS table, i.indexname AS index FROM pg_indexes i
        WHERE i.schemaname = current_schema()
          AND NOT EXISTS (SELECT 1 FROM pg_constraint c
                           WHERE c.conname = i.indexname AND c.contype IN ('p','u')
                             AND c.connamespace = current_schema()::regnamespace)`,
    );
    const inDatabase = rows.filter((r) => !NOT_MODELLED.has(r.table)).map((r) => `${r.table}.${r.index}`).sort();
    const declared = migrated.entityMetadatas.flatMap((m) => m.indices.map((i) => `${m.tableName}.${i.name}`)).sort();
    assert.deepEqual(declared, inDatabase);
  });

  test('the outbox triggers that TypeORM cannot declare are in place', async () => {
    for (const [trigger, migration] of [
      ['events_outbox_notify', 'WebhookDispatch'],
      ['workflow_starts_notify', 'WorkflowStarts'],
    ]) {
      const rows = await migrated.query(
        `SELECT 1 FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
          WHERE t.tgname = $1 AND NOT t.tgisinternal AND c.relnamespace = current_schema()::regnamespace`,
        [trigger],
      );
      assert.equal(rows.length, 1, `${trigger} (migration ${migration}) is missing`);
    }
  });
});

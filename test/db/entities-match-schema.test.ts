// The entities (db/entities) and the hand-written migrations describe the same schema:
// against the migrated test database, what `typeorm migration:generate` would emit is
// empty, and every table and index of the migrations is declared by an entity (indexes
// TypeORM cannot express are declared by name with synchronize:false; docs/data.md).
import assert from 'node:assert/strict';
import { connectDb, type Db } from '../../db/db';

let db: Db;

beforeAll(async () => {
  db = await connectDb(process.env.DATABASE_URL!, 2);
});
afterAll(() => db.close());

// TypeORM's own bookkeeping, not part of the model
const NOT_MODELLED = new Set(['schema_migrations', 'typeorm_metadata']);

describe('entities and migrations', () => {
  test('migration:generate against the migrated database has nothing to emit', async () => {
    const log = await db.dataSource.driver.createSchemaBuilder().log();
    assert.deepEqual(
      log.upQueries.map((q) => q.query),
      [],
      'the entities and the migrations disagree: fix the entity, or write a migration',
    );
  });

  test('every table has an entity and every entity a table', async () => {
    const { rows } = await db.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'`,
    );
    const tables = rows.map((r) => r.name).filter((n) => !NOT_MODELLED.has(n)).sort();
    const entities = db.dataSource.entityMetadatas.map((m) => m.tableName).sort();
    assert.deepEqual(entities, tables);
  });

  test('every index of the migrations is declared by its entity, by name', async () => {
    // indexes that back a primary key or a unique constraint are declared as those
    const { rows } = await db.query<{ table: string; index: string }>(
      `SELECT i.tablename AS table, i.indexname AS index FROM pg_indexes i
        WHERE i.schemaname = current_schema()
          AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname AND c.contype IN ('p','u'))`,
    );
    const inDatabase = rows.filter((r) => !NOT_MODELLED.has(r.table)).map((r) => `${r.table}.${r.index}`).sort();
    const declared = db.dataSource.entityMetadatas.flatMap((m) => m.indices.map((i) => `${m.tableName}.${i.name}`)).sort();
    assert.deepEqual(declared, inDatabase);
  });

  test('the outbox trigger that TypeORM cannot declare is in place', async () => {
    const { rows } = await db.query(`SELECT 1 FROM pg_trigger WHERE tgname = 'events_outbox_notify' AND NOT tgisinternal`);
    assert.equal(rows.length, 1, 'events_outbox_notify (migration WebhookDispatch) is missing');
  });
});

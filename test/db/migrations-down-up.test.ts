// Every migration can be undone and done again. On an empty database of this test's own,
// the migrations go up one at a time (the schema noted after each); then, newest first,
// each one's `down` must give back the schema noted before it, and its `up` run again the
// schema noted after it. The schema is what the catalog shows: relations and their
// storage options, columns, indexes, constraints, triggers, functions and types, and the
// generated-column record in typeorm_metadata; TypeORM's own two tables (it makes them
// itself whenever it runs or undoes a migration) are left out.
import assert from 'node:assert/strict';
import type { DataSource } from 'typeorm';
import { MIGRATIONS, createDataSource } from '../../db/data-source';
import { throwawayDatabase, type ThrowawayDb } from '../support/throwaway-db';

/** In the order TypeORM runs them: by the timestamp that ends the class name. */
const ORDER = [...MIGRATIONS].sort((a, b) => Number(a.name.slice(-13)) - Number(b.name.slice(-13)));
const TYPEORM_TABLES = `('schema_migrations', 'typeorm_metadata')`;

type Schema = Record<string, string[]>;

async function schemaOf(q: DataSource): Promise<Schema> {
  const lines = async (sql: string) => ((await q.query(sql)) as Array<{ line: string }>).map((r) => r.line).sort();
  const [{ metadata }] = await q.query(`SELECT to_regclass('typeorm_metadata') IS NOT NULL AS metadata`);
  return {
    relations: await lines(
      `SELECT concat_ws(' ', c.relname, c.relkind::text, array_to_string(c.reloptions, ',')) AS line
         FROM pg_class c
        WHERE c.relnamespace = current_schema()::regnamespace AND c.relname NOT IN ${TYPEORM_TABLES}
          AND NOT EXISTS (SELECT 1 FROM pg_index i WHERE i.indexrelid = c.oid AND i.indrelid::regclass::text IN ${TYPEORM_TABLES})
          AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid
                             AND d.refclassid = 'pg_class'::regclass AND d.refobjid::regclass::text IN ${TYPEORM_TABLES})`,
    ),
    columns: await lines(
      `SELECT concat_ws(' ', table_name, column_name, data_type, udt_name, is_nullable, column_default,
                        character_maximum_length, numeric_precision, is_generated, generation_expression) AS line
         FROM information_schema.columns WHERE table_schema = current_schema() AND table_name NOT IN ${TYPEORM_TABLES}`,
    ),
    indexes: await lines(
      `SELECT tablename || ' ' || indexdef AS line FROM pg_indexes
        WHERE schemaname = current_schema() AND tablename NOT IN ${TYPEORM_TABLES}`,
    ),
    constraints: await lines(
      `SELECT c.conrelid::regclass::text || ' ' || c.conname || ' ' || pg_get_constraintdef(c.oid) AS line
         FROM pg_constraint c
        WHERE c.connamespace = current_schema()::regnamespace AND c.conrelid::regclass::text NOT IN ${TYPEORM_TABLES}`,
    ),
    triggers: await lines(
      `SELECT pg_get_triggerdef(t.oid) AS line FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
        WHERE NOT t.tgisinternal AND c.relnamespace = current_schema()::regnamespace`,
    ),
    functions: await lines(`SELECT pg_get_functiondef(p.oid) AS line FROM pg_proc p WHERE p.pronamespace = current_schema()::regnamespace`),
    types: await lines(
      `SELECT t.typname || ' ' || t.typtype::text AS line FROM pg_type t
        WHERE t.typnamespace = current_schema()::regnamespace AND t.typtype IN ('e', 'd')`,
    ),
    typeormMetadata: metadata ? await lines(`SELECT concat_ws(' ', "type", "table", "name", "value") AS line FROM typeorm_metadata`) : [],
  };
}

function assertSameSchema(actual: Schema, expected: Schema, what: string): void {
  for (const part of Object.keys(expected)) assert.deepEqual(actual[part], expected[part], `${what}: ${part}`);
}

let db: ThrowawayDb;

/** A DataSource on the test's database that knows the first `count` migrations. */
async function withMigrations<T>(count: number, fn: (ds: DataSource) => Promise<T>): Promise<T> {
  const ds = createDataSource(db.url, 1);
  ds.setOptions({ migrations: ORDER.slice(0, count) });
  await ds.initialize();
  try {
    return await fn(ds);
  } finally {
    await ds.destroy();
  }
}

beforeAll(async () => {
  db = await throwawayDatabase('migrations_down_up');
});
afterAll(async () => {
  await db?.drop();
});

test('each migration down gives back the schema before it, and up again the schema after it', async () => {
  /** after[k]: the schema once the first k migrations are up */
  const after: Schema[] = [await withMigrations(0, schemaOf)];
  for (let k = 1; k <= ORDER.length; k++) {
    after.push(
      await withMigrations(k, async (ds) => {
        await ds.runMigrations({ transaction: 'each' });
        return schemaOf(ds);
      }),
    );
  }
  const built = after[ORDER.length];
  for (const part of ['relations', 'columns', 'indexes', 'constraints', 'triggers', 'functions', 'typeormMetadata']) {
    assert.ok(built[part].length > 0, `the migrations built ${part}`);
  }

  const step = async (what: string, run: () => Promise<unknown>) => run().catch((err: Error) => assert.fail(`${what} failed: ${err.message}`));
  for (let k = ORDER.length; k >= 1; k--) {
    const name = ORDER[k - 1].name;
    // a DataSource that knows migrations 1..k: its up again runs this one only
    await withMigrations(k, async (ds) => {
      await step(`${name} down`, () => ds.undoLastMigration({ transaction: 'each' }));
      assertSameSchema(await schemaOf(ds), after[k - 1], `${name} down`);
      await step(`${name} up after its down`, () => ds.runMigrations({ transaction: 'each' }));
      assertSameSchema(await schemaOf(ds), after[k], `${name} down, then up again`);
      await ds.undoLastMigration({ transaction: 'each' });
    });
  }
  await withMigrations(0, async (ds) => {
    const [{ n }] = await ds.query('SELECT count(*)::int AS n FROM schema_migrations');
    assert.equal(n, 0, 'every migration was undone');
  });
});

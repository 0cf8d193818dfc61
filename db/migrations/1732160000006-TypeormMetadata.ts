import type { MigrationInterface, QueryRunner } from 'typeorm';

// Forced by the TypeORM entities (db/entities, docs/data.md): TypeORM reads the expression
// of a generated column (tickets.search) from its own `typeorm_metadata` table, not from
// the catalog, and fails without it. This creates the table with TypeORM's own DDL and
// records the expression the Initial migration used, so the schema builder sees the
// column as unchanged. No data of ours lives here.
export class TypeormMetadata1732160000006 implements MigrationInterface {
  name = 'TypeormMetadata1732160000006';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE IF NOT EXISTS typeorm_metadata (
        "type" character varying NOT NULL,
        "database" character varying,
        "schema" character varying,
        "table" character varying,
        "name" character varying,
        "value" text
      )
    `);
    await q.query(
      `INSERT INTO typeorm_metadata ("type", "database", "schema", "table", "name", "value")
       VALUES ('GENERATED_COLUMN', current_database(), current_schema(), 'tickets', 'search', $1)`,
      ["setweight(to_tsvector('english', title), 'A') || setweight(to_tsvector('english', body), 'B')"],
    );
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS typeorm_metadata');
  }
}

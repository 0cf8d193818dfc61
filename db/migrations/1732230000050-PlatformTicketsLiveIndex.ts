import type { MigrationInterface, QueryRunner } from 'typeorm';

// The platform ticket list (GET /platform/v1/tickets) reads a page and the total of a
// workspace's live tickets (deleted_at IS NULL) newest first. With the index on every row,
// the total visited each ticket's heap row for its deleted_at (the benchmark's p99 of a
// 10,000-ticket workspace: 27.8 ms); a partial index of the live rows in the list's order
// answers both from the index alone (docs/platform.md, "Benchmark"). Deleted rows are
// reached by id (the primary key) and by workspace (platform_tickets_status).
export class PlatformTicketsLiveIndex1732230000050 implements MigrationInterface {
  name = 'PlatformTicketsLiveIndex1732230000050';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP INDEX platform_tickets_list;
      CREATE INDEX platform_tickets_live ON platform_tickets (workspace_id, environment, created_at DESC, id DESC) WHERE deleted_at IS NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP INDEX platform_tickets_live;
      CREATE INDEX platform_tickets_list ON platform_tickets (workspace_id, environment, created_at, id);
    `);
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

// Platform tickets (docs/platform.md, "Tickets"):
// - A reply is written by the API as a draft (its body never travels through the ticket
//   workflow's history) and published by the workflow as one of the ticket's numbered
//   steps: `version` is that step, null while the reply is a draft (hidden from reads).
// - The list's filters: `status` (the most common one: open tickets) and `tag` (a GIN
//   index over the tags, for `tags @> ARRAY[tag]`); the others narrow the workspace's
//   own list index (platform_tickets_list) or use platform_tickets_assignee.
export class PlatformTickets1732230000040 implements MigrationInterface {
  name = 'PlatformTickets1732230000040';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE platform_ticket_replies ADD COLUMN version integer;
      CREATE INDEX platform_tickets_status ON platform_tickets (workspace_id, environment, status, created_at DESC, id DESC);
      CREATE INDEX platform_tickets_tags ON platform_tickets USING gin (tags);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      DROP INDEX platform_tickets_tags;
      DROP INDEX platform_tickets_status;
      ALTER TABLE platform_ticket_replies DROP COLUMN version;
    `);
  }
}

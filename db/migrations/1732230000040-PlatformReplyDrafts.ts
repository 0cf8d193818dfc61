import type { MigrationInterface, QueryRunner } from 'typeorm';

// A platform ticket's reply is written by the API as a draft (its body never travels
// through the ticket workflow's history) and published by the workflow as one of the
// ticket's numbered steps (docs/platform.md, "Tickets"): `version` is that step, null
// while the reply is a draft (hidden from every read).
export class PlatformReplyDrafts1732230000040 implements MigrationInterface {
  name = 'PlatformReplyDrafts1732230000040';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE platform_ticket_replies ADD COLUMN version integer`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE platform_ticket_replies DROP COLUMN version`);
  }
}

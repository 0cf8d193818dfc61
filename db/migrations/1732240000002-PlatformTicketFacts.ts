import type { MigrationInterface, QueryRunner } from 'typeorm';

// The facts of a platform ticket that SLA breaches and analytics read (docs/platform.md,
// "SLA breaches" and "Analytics"), written by the ticket's workflow:
// when it was first answered (its first published reply) and when each SLA policy was
// breached (at most once per policy per ticket). Existing tickets have none of them yet.
export class PlatformTicketFacts1732240000002 implements MigrationInterface {
  name = 'PlatformTicketFacts1732240000002';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE platform_tickets
        ADD COLUMN first_response_at timestamptz,
        ADD COLUMN first_response_breached_at timestamptz,
        ADD COLUMN resolution_breached_at timestamptz;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE platform_tickets
        DROP COLUMN resolution_breached_at,
        DROP COLUMN first_response_breached_at,
        DROP COLUMN first_response_at;
    `);
  }
}

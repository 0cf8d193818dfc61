import type { MigrationInterface, QueryRunner } from 'typeorm';

// platform_tickets.first_response_at for the tickets answered before the column existed
// (docs/platform.md, "SLA breaches"): their first published reply's time. Without it, the
// SLA timers a running ticket takes after the deploy would breach the first response of a
// ticket answered long ago, and analytics would leave its first response out. Data only.
export class PlatformFirstResponseBackfill1732240000030 implements MigrationInterface {
  name = 'PlatformFirstResponseBackfill1732240000030';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      UPDATE platform_tickets t
         SET first_response_at = r.first_at
        FROM (SELECT ticket_id, min(created_at) AS first_at FROM platform_ticket_replies WHERE version IS NOT NULL GROUP BY ticket_id) r
       WHERE r.ticket_id = t.id AND t.first_response_at IS NULL;
    `);
  }

  async down(): Promise<void> {
    // nothing to undo: the facts were true before the column existed
  }
}

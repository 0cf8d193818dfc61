import type { MigrationInterface, QueryRunner } from 'typeorm';

// Indexes for player erasure (domain/players/erase-player.ts).
export class Players1732160000002 implements MigrationInterface {
  name = 'Players1732160000002';

  async up(q: QueryRunner): Promise<void> {
    // erasure rewrites the recipient of every notification sent about the player's
    // tickets; without this the UPDATE scans every notification ever sent
    await q.query('CREATE INDEX IF NOT EXISTS notifications_ticket ON notifications (ticket_id)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX IF EXISTS notifications_ticket');
  }
}

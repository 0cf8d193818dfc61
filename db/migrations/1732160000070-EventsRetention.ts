import type { MigrationInterface, QueryRunner } from 'typeorm';

// Retention of the events outbox: the hourly purge (workflows/maintenance) deletes events
// dispatched more than 7 days ago, oldest first; this index finds them without a scan.
export class EventsRetention1732160000070 implements MigrationInterface {
  name = 'EventsRetention1732160000070';

  async up(q: QueryRunner): Promise<void> {
    await q.query('CREATE INDEX events_dispatched ON events (dispatched_at) WHERE dispatched_at IS NOT NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX IF EXISTS events_dispatched');
  }
}

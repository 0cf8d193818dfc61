import type { MigrationInterface, QueryRunner } from 'typeorm';

// push_notifications: every row is inserted `queued` and updated once when its push is
// answered (then perhaps by tracking). Two changes make that update cheap and its plan safe:
// - the (send_id, status) index goes. No query needs it (pages and counts use
//   (send_id, position)), and it invited a bad plan: statistics taken while every row was
//   `sent` made the planner drive recordOutcomes' UPDATE from it ("status = 'queued'",
//   1 row estimated), so each page of 500 read every queued row of every send (measured
//   under bench:push: 150–300 ms of Postgres per page, 15× a send's whole database cost).
//   recordOutcomes now finds its rows by primary key (db/repositories/push-sends.ts).
// - fillfactor 50 leaves room on each page for every row's updated version (a page of
//   outcomes updates all its rows at once, before any old version can be pruned): with
//   no indexed column changed (status, sent_at, failed_at, error, delivered_at and
//   opened_at are not indexed now), each update is HOT and writes no index entry. Later
//   updates (tracking) find the page pruned of the versions no one sees any more.
export class PushNotificationsHot1732180000001 implements MigrationInterface {
  name = 'PushNotificationsHot1732180000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX IF EXISTS push_notifications_send_status');
    await q.query('ALTER TABLE push_notifications SET (fillfactor = 50)');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE push_notifications RESET (fillfactor)');
    await q.query('CREATE INDEX push_notifications_send_status ON push_notifications (send_id, status)');
  }
}

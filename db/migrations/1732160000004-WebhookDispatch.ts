import type { MigrationInterface, QueryRunner } from 'typeorm';

// The outbox side of webhooks: which events the dispatcher has fanned out, a NOTIFY that
// wakes it the moment an event commits, and a flag for synthetic (test-sender) deliveries.
export class WebhookDispatch1732160000004 implements MigrationInterface {
  name = 'WebhookDispatch1732160000004';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      -- claimed_at: the dispatcher created the event's delivery rows (once, committed);
      -- dispatched_at: their workflow is started (or there were none). A claim without a
      -- dispatch is taken up again after a while (the dispatcher died in between).
      ALTER TABLE events ADD COLUMN claimed_at timestamptz, ADD COLUMN dispatched_at timestamptz;
      -- events recorded before webhooks existed had no endpoint to go to
      UPDATE events SET claimed_at = occurred_at, dispatched_at = occurred_at;
      CREATE INDEX events_undispatched ON events (occurred_at, id) WHERE dispatched_at IS NULL;

      -- Per statement, and pg_notify folds equal notifications within a transaction:
      -- one wake-up per committing transaction, whatever it inserted.
      CREATE FUNCTION notify_events_outbox() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('events_outbox', '');
        RETURN NULL;
      END $$;
      CREATE TRIGGER events_outbox_notify AFTER INSERT ON events
        FOR EACH STATEMENT EXECUTE FUNCTION notify_events_outbox();

      ALTER TABLE webhook_deliveries ADD COLUMN synthetic boolean NOT NULL DEFAULT false;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE webhook_deliveries DROP COLUMN synthetic;
      DROP TRIGGER IF EXISTS events_outbox_notify ON events;
      DROP FUNCTION IF EXISTS notify_events_outbox();
      DROP INDEX IF EXISTS events_undispatched;
      ALTER TABLE events DROP COLUMN claimed_at, DROP COLUMN dispatched_at;
    `);
  }
}

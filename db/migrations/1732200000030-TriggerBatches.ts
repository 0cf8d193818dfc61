import type { MigrationInterface, QueryRunner } from 'typeorm';

// Event trigger firings go out in batches (docs/push.md, "Event triggers"): the push
// worker's firing dispatcher claims committed firings (a NOTIFY wakes it the moment a
// fire commits), puts them in a batch (batch_id, claimed_at) and starts the batch's
// workflow (dispatched_at), as the events outbox does for webhooks. A claim without a
// dispatch is taken up again after a while (the dispatcher died, Temporal was down).
// push_notifications gets its own text: a batch is one send whose notifications each
// carry their firing's rendered title and body (null for every other send: the send's).
export class TriggerBatches1732200000030 implements MigrationInterface {
  name = 'TriggerBatches1732200000030';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE push_trigger_firings
        ADD COLUMN batch_id uuid, ADD COLUMN claimed_at timestamptz, ADD COLUMN dispatched_at timestamptz;
      -- firings made before batches had their own workflow each
      UPDATE push_trigger_firings SET claimed_at = created_at, dispatched_at = created_at;
      CREATE INDEX push_trigger_firings_undispatched ON push_trigger_firings (send_at, id) WHERE dispatched_at IS NULL;
      CREATE INDEX push_trigger_firings_batch ON push_trigger_firings (batch_id);

      -- Per statement, and pg_notify folds equal notifications within a transaction:
      -- one wake-up per committing fire, whatever it inserted.
      CREATE FUNCTION notify_push_trigger_firings() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('push_trigger_firings', '');
        RETURN NULL;
      END $$;
      CREATE TRIGGER push_trigger_firings_notify AFTER INSERT ON push_trigger_firings
        FOR EACH STATEMENT EXECUTE FUNCTION notify_push_trigger_firings();

      ALTER TABLE push_notifications ADD COLUMN title text, ADD COLUMN body text;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE push_notifications DROP COLUMN title, DROP COLUMN body;
      DROP TRIGGER IF EXISTS push_trigger_firings_notify ON push_trigger_firings;
      DROP FUNCTION IF EXISTS notify_push_trigger_firings();
      DROP INDEX IF EXISTS push_trigger_firings_batch;
      DROP INDEX IF EXISTS push_trigger_firings_undispatched;
      ALTER TABLE push_trigger_firings DROP COLUMN batch_id, DROP COLUMN claimed_at, DROP COLUMN dispatched_at;
    `);
  }
}

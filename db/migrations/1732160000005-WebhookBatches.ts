import type { MigrationInterface, QueryRunner } from 'typeorm';

// Webhook fan-out by dispatch batch: the events one claim takes share a batch id, and one
// workflow (`webhook-batch/<batch id>`) delivers all their deliveries (docs/webhooks.md).
export class WebhookBatches1732160000005 implements MigrationInterface {
  name = 'WebhookBatches1732160000005';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE events ADD COLUMN batch_id text;
      -- a claim left undispatched before this migration is its own batch
      UPDATE events SET batch_id = id WHERE claimed_at IS NOT NULL AND dispatched_at IS NULL;
      CREATE INDEX events_undispatched_batch ON events (batch_id) WHERE dispatched_at IS NULL;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP INDEX IF EXISTS events_undispatched_batch; ALTER TABLE events DROP COLUMN batch_id;');
  }
}

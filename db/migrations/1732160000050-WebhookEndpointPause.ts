import type { MigrationInterface, QueryRunner } from 'typeorm';

// Why and since when an endpoint is paused: set by the 'pause-endpoint' step after a
// delivery's last failed attempt (platform schedule) or by a PATCH active=false, cleared
// when it is resumed. The platform API shows them as `paused_at` / `paused_reason`.
export class WebhookEndpointPause1732160000050 implements MigrationInterface {
  name = 'WebhookEndpointPause1732160000050';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE webhook_endpoints ADD COLUMN paused_at timestamptz, ADD COLUMN paused_reason text;
      UPDATE webhook_endpoints SET paused_at = updated_at, paused_reason = 'manual' WHERE NOT active;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE webhook_endpoints DROP COLUMN paused_at, DROP COLUMN paused_reason');
  }
}

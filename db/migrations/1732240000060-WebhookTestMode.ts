import type { MigrationInterface, QueryRunner } from 'typeorm';

// The ticketing spec's webhook test mode (docs/webhooks.md, "Test mode"): while an
// endpoint's test_mode is on, the fan-out writes no delivery of a real event for it and its
// pending real deliveries are not sent; only the test sender's synthetic ones are. Every
// endpoint existing today keeps receiving real events (false). Platform endpoints never set it.
export class WebhookTestMode1732240000060 implements MigrationInterface {
  name = 'WebhookTestMode1732240000060';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_endpoints ADD COLUMN test_mode boolean NOT NULL DEFAULT false`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE webhook_endpoints DROP COLUMN test_mode`);
  }
}

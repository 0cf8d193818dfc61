import type { MigrationInterface, QueryRunner } from 'typeorm';

// Secret rotation for both webhook APIs (docs/webhooks.md, "Secret rotation"):
// the secret a rotation replaced, sealed like secret_box (bound to the endpoint id), and
// until when deliveries still carry its signature beside the new one's (24 h). Both null
// on an endpoint never rotated, or once the window has passed and a rotation cleared it.
export class WebhookSecretRotation1732240000010 implements MigrationInterface {
  name = 'WebhookSecretRotation1732240000010';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE webhook_endpoints
        ADD COLUMN previous_secret_box text,
        ADD COLUMN previous_secret_expires_at timestamptz;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE webhook_endpoints
        DROP COLUMN previous_secret_expires_at,
        DROP COLUMN previous_secret_box;
    `);
  }
}

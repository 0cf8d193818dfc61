import type { MigrationInterface, QueryRunner } from 'typeorm';

// Live and test data never meet (docs/platform.md, "Live and test data"), webhooks
// included: a platform endpoint belongs to the environment of the token that registered
// it, and a platform event carries its ticket's environment; the fan-out sends an event to
// the endpoints of its environment only. Ticketing endpoints and events have none (null),
// and match each other as before. Platform endpoints registered before this migration
// (only since the previous one, in the same release) are taken as live.
export class WebhookEnvironments1732240000050 implements MigrationInterface {
  name = 'WebhookEnvironments1732240000050';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE webhook_endpoints ADD COLUMN environment text,
        ADD CONSTRAINT webhook_endpoints_environment_check CHECK (environment IN ('live', 'test'));
      UPDATE webhook_endpoints SET environment = 'live' WHERE api = 'platform';
      ALTER TABLE events ADD COLUMN environment text;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE events DROP COLUMN environment;
      ALTER TABLE webhook_endpoints DROP CONSTRAINT webhook_endpoints_environment_check, DROP COLUMN environment;
    `);
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

// Which webhook API an endpoint belongs to and which API an event is for
// (domain/webhooks/apis.ts): one events outbox serves every API, and the dispatcher's claim
// matches an event only to endpoints of its API. Every row so far is the ticketing API's.
// Going down forgets the API: only do it while every row is 'ticketing'.
export class WebhookApis1732220000001 implements MigrationInterface {
  name = 'WebhookApis1732220000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE webhook_endpoints ADD COLUMN api text NOT NULL DEFAULT 'ticketing';
      ALTER TABLE events ADD COLUMN api text NOT NULL DEFAULT 'ticketing';
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE events DROP COLUMN api;
      ALTER TABLE webhook_endpoints DROP COLUMN api;
    `);
  }
}

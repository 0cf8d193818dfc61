import type { MigrationInterface, QueryRunner } from 'typeorm';

// Webhook endpoints, one delivery per (event, endpoint), and every attempt of it.
export class Webhooks1732160000003 implements MigrationInterface {
  name = 'Webhooks1732160000003';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE webhook_endpoints (
        id text PRIMARY KEY,
        workspace_id text NOT NULL REFERENCES workspaces(id),
        url text NOT NULL,
        events text[] NOT NULL,
        description text NOT NULL DEFAULT '',
        active boolean NOT NULL DEFAULT true,
        secret_box text NOT NULL,                 -- AES-256-GCM, bound to the endpoint id
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        deleted_at timestamptz
      );
      CREATE INDEX webhook_endpoints_ws ON webhook_endpoints (workspace_id) WHERE deleted_at IS NULL;

      CREATE TABLE webhook_deliveries (
        id text PRIMARY KEY,                      -- evt_: the envelope id, the same on every attempt
        endpoint_id text NOT NULL REFERENCES webhook_endpoints(id),
        event_id text NOT NULL,
        event_type text NOT NULL,
        workspace_id text NOT NULL,
        body text NOT NULL,                       -- the envelope as sent: the same bytes every attempt
        status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending','succeeded','failed','skipped')),
        attempts integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        completed_at timestamptz,
        UNIQUE (event_id, endpoint_id)
      );
      CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries (endpoint_id, created_at DESC);
      CREATE INDEX webhook_deliveries_created ON webhook_deliveries (created_at);

      CREATE TABLE webhook_attempts (
        delivery_id text NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
        attempt integer NOT NULL,
        scheduled_at timestamptz NOT NULL,        -- workflow time the schedule set for it
        started_at timestamptz NOT NULL,
        status_code integer,
        latency_ms integer,
        error text,
        PRIMARY KEY (delivery_id, attempt)
      );
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('DROP TABLE IF EXISTS webhook_attempts, webhook_deliveries, webhook_endpoints');
  }
}

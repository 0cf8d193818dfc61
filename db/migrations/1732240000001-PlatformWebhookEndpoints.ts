import type { MigrationInterface, QueryRunner } from 'typeorm';

// Webhook endpoints of the platform API (docs/platform.md, "Webhooks"): an endpoint's workspace is a ticketing
// workspace or a platform workspace, by its `api`. One foreign key cannot point at either
// table, so each API gets a generated column that holds workspace_id for its own rows only
// (null otherwise) with its own foreign key: every endpoint still references a workspace
// that exists. TypeORM reads generated columns' expressions from typeorm_metadata
// (migration TypeormMetadata), so their rows are recorded here too.
const GENERATED = {
  ticketing_workspace_id: "CASE WHEN api = 'ticketing' THEN workspace_id END",
  platform_workspace_id: "CASE WHEN api = 'platform' THEN workspace_id END",
};

export class PlatformWebhookEndpoints1732240000001 implements MigrationInterface {
  name = 'PlatformWebhookEndpoints1732240000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE webhook_endpoints DROP CONSTRAINT webhook_endpoints_workspace_id_fkey;
      ALTER TABLE webhook_endpoints
        ADD COLUMN ticketing_workspace_id text GENERATED ALWAYS AS (${GENERATED.ticketing_workspace_id}) STORED,
        ADD COLUMN platform_workspace_id text GENERATED ALWAYS AS (${GENERATED.platform_workspace_id}) STORED,
        ADD CONSTRAINT webhook_endpoints_api_check CHECK (api IN ('ticketing', 'platform')),
        ADD CONSTRAINT webhook_endpoints_ticketing_workspace_id_fkey FOREIGN KEY (ticketing_workspace_id) REFERENCES workspaces(id),
        ADD CONSTRAINT webhook_endpoints_platform_workspace_id_fkey FOREIGN KEY (platform_workspace_id) REFERENCES platform_workspaces(id);
    `);
    for (const [name, expression] of Object.entries(GENERATED)) {
      await q.query(
        `INSERT INTO typeorm_metadata ("type", "database", "schema", "table", "name", "value")
         VALUES ('GENERATED_COLUMN', current_database(), current_schema(), 'webhook_endpoints', $1, $2)`,
        [name, expression],
      );
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DELETE FROM typeorm_metadata WHERE "table" = 'webhook_endpoints' AND "type" = 'GENERATED_COLUMN'`);
    await q.query(`
      ALTER TABLE webhook_endpoints
        DROP CONSTRAINT webhook_endpoints_api_check,
        DROP COLUMN platform_workspace_id,
        DROP COLUMN ticketing_workspace_id;
      ALTER TABLE webhook_endpoints ADD CONSTRAINT webhook_endpoints_workspace_id_fkey FOREIGN KEY (workspace_id) REFERENCES workspaces(id);
    `);
  }
}

import type { MigrationInterface, QueryRunner } from 'typeorm';

// Platform automations (docs/platform.md, "Automations"): a workspace's rules, each
// of one environment (live or test, as the token that made it), with a trigger, conditions
// and actions as jsonb (their shapes: domain/platform/automation.rules.ts). Hard-deleted by
// DELETE; they go with their workspace (the foreign key cascades when the purge deletes
// the workspace's row). The list and the ticket workflow read a workspace's rules in
// creation order (created_at, id).
export class PlatformAutomations1732240000020 implements MigrationInterface {
  name = 'PlatformAutomations1732240000020';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE platform_automations (
        id text PRIMARY KEY,
        organization_id text NOT NULL REFERENCES platform_organizations(id) ON DELETE CASCADE,
        workspace_id text NOT NULL REFERENCES platform_workspaces(id) ON DELETE CASCADE,
        environment text NOT NULL CONSTRAINT platform_automations_environment_check CHECK (environment IN ('live','test')),
        name text NOT NULL,
        trigger text NOT NULL CONSTRAINT platform_automations_trigger_check CHECK (trigger IN ('ticket.created','ticket.updated')),
        conditions jsonb NOT NULL DEFAULT '[]',
        actions jsonb NOT NULL,
        active boolean NOT NULL DEFAULT true,
        created_by text REFERENCES platform_users(id),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      );
      CREATE INDEX platform_automations_workspace ON platform_automations (workspace_id, environment, created_at, id);
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE platform_automations`);
  }
}

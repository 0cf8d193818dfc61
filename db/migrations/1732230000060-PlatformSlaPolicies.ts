import type { MigrationInterface, QueryRunner } from 'typeorm';

// A workspace's SLA policies become editable (PUT /platform/v1/workspaces/{id}/sla-policies;
// docs/platform.md, "Workspaces"): the stored policies, one per priority, or null for the
// documented defaults (domain/platform/sla-defaults.rules.ts), which every existing
// workspace keeps.
export class PlatformSlaPolicies1732230000060 implements MigrationInterface {
  name = 'PlatformSlaPolicies1732230000060';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE platform_workspaces ADD COLUMN sla_policies jsonb`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE platform_workspaces DROP COLUMN sla_policies`);
  }
}

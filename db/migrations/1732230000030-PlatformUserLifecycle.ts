import type { MigrationInterface, QueryRunner } from 'typeorm';

// Platform users' lifecycle (docs/platform.md, "Users"):
// - platform_users.deactivations counts a user's deactivations: each one has its own
//   `user-deactivation/<id>` workflow (the n-th after the first: `user-deactivation/<id>/<n>`),
//   since a workflow id names one run ever (lib/temporal/start-once.ts) and a reactivated
//   user may be deactivated again.
// - platform_activation_tokens.workspace_id: the workspace of the invitation, where the
//   activated user's first token is made.
export class PlatformUserLifecycle1732230000030 implements MigrationInterface {
  name = 'PlatformUserLifecycle1732230000030';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE platform_users ADD COLUMN deactivations integer NOT NULL DEFAULT 0;
      ALTER TABLE platform_activation_tokens
        ADD COLUMN workspace_id text REFERENCES platform_workspaces(id) ON DELETE CASCADE;
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE platform_activation_tokens DROP COLUMN workspace_id;
      ALTER TABLE platform_users DROP COLUMN deactivations;
    `);
  }
}

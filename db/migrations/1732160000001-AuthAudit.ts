import type { MigrationInterface, QueryRunner } from 'typeorm';

// Audit facts for API keys: which key created and which key revoked each one. A revoked
// key row (with revoked_at and revoked_by) is the audit record; the daily maintenance
// purge deletes it 365 days after revocation (api_keys_revoked serves that query).
export class AuthAudit1732160000001 implements MigrationInterface {
  name = 'AuthAudit1732160000001';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      ALTER TABLE api_keys ADD COLUMN created_by text;   -- key id of the creator; null for bootstrap/factories
      ALTER TABLE api_keys ADD COLUMN revoked_by text;   -- key id that revoked it
    `);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE api_keys DROP COLUMN IF EXISTS created_by, DROP COLUMN IF EXISTS revoked_by');
  }
}

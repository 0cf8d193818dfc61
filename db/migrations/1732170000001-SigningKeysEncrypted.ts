import type { MigrationInterface, QueryRunner } from 'typeorm';
import { masterKey } from '../../lib/crypto/master-key';
import { decryptSecret, encryptSecret } from '../../lib/crypto/secret-box';
import { loadConfig } from '../../lib/config';

// The format as of this migration (api/kit/auth/signing-keys.ts reads it): the
// JWK as JSON, bound to its row by the context `signing_keys:<kid>`.
const context = (kid: string) => `signing_keys:${kid}`;

// The RS256 private signing keys leave the clear: `private_jwk` (jsonb) becomes
// `private_key_box`, the JWK sealed in the secret box with the key from configuration
// (WEBHOOK_SECRET_KEY, never the database). Existing rows are converted in place, so
// tokens issued before the migration keep verifying and the same key keeps signing.
export class SigningKeysEncrypted1732170000001 implements MigrationInterface {
  name = 'SigningKeysEncrypted1732170000001';

  private boxKey(rows: number, what: string): Buffer {
    const config = loadConfig();
    const need = `signing_keys holds ${rows} private key(s) to ${what}, but`;
    if (!config.webhookSecretKey) {
      throw new Error(`${need} the secret-box key is not configured: set WEBHOOK_SECRET_KEY (scripts/ensure.sh writes one into .data/env) and migrate again`);
    }
    try {
      return masterKey(config);
    } catch (err) {
      throw new Error(`${need} WEBHOOK_SECRET_KEY is not usable: ${(err as Error).message}`);
    }
  }

  async up(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE signing_keys ADD COLUMN private_key_box text');
    const rows: Array<{ kid: string; private_jwk: object }> = await q.query('SELECT kid, private_jwk FROM signing_keys');
    if (rows.length) {
      const key = this.boxKey(rows.length, 'encrypt');
      for (const r of rows) {
        await q.query('UPDATE signing_keys SET private_key_box = $2 WHERE kid = $1', [r.kid, encryptSecret(key, JSON.stringify(r.private_jwk), context(r.kid))]);
      }
    }
    await q.query('ALTER TABLE signing_keys DROP COLUMN private_jwk, ALTER COLUMN private_key_box SET NOT NULL');
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query('ALTER TABLE signing_keys ADD COLUMN private_jwk jsonb');
    const rows: Array<{ kid: string; private_key_box: string }> = await q.query('SELECT kid, private_key_box FROM signing_keys');
    if (rows.length) {
      const key = this.boxKey(rows.length, 'decrypt');
      for (const r of rows) {
        await q.query('UPDATE signing_keys SET private_jwk = $2 WHERE kid = $1', [r.kid, decryptSecret(key, r.private_key_box, context(r.kid))]);
      }
    }
    await q.query('ALTER TABLE signing_keys DROP COLUMN private_key_box, ALTER COLUMN private_jwk SET NOT NULL');
  }
}

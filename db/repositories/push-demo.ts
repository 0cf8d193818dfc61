// The push demo tenant of `npm run admin -- bootstrap`: rows with fixed ids, created
// when missing (ON CONFLICT DO NOTHING), so every run finds the previous run's rows.
import { sql, type Executor } from '../db';

export async function ensurePushCompany(executor: Executor, c: { id: string; name: string }): Promise<void> {
  await sql(executor, `INSERT INTO push_companies (id, name) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [c.id, c.name]);
}

/** The user with this email (created with `id` when there is none); its id. */
export async function ensurePushUser(
  executor: Executor,
  u: { id: string; email: string; name: string; passwordHash: string },
): Promise<string> {
  await sql(
    executor,
    `INSERT INTO push_users (id, email, name, password_hash) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
    [u.id, u.email, u.name, u.passwordHash],
  );
  const { rows } = await sql<{ id: string }>(executor, `SELECT id FROM push_users WHERE email = $1`, [u.email]);
  return rows[0].id;
}

/** The local stack's operator of the trial approval flow (never in production: scripts/push-bootstrap.ts). */
export async function makePushSuperAdmin(executor: Executor, userId: string): Promise<void> {
  await sql(executor, `UPDATE push_users SET is_super_admin = true, updated_at = now() WHERE id = $1 AND NOT is_super_admin`, [userId]);
}

export async function ensurePushMembership(executor: Executor, userId: string, companyId: string): Promise<void> {
  await sql(
    executor,
    `INSERT INTO push_memberships (user_id, company_id, role) VALUES ($1, $2, 'owner') ON CONFLICT DO NOTHING`,
    [userId, companyId],
  );
}

export async function ensurePushApp(
  executor: Executor,
  a: { id: string; companyId: string; name: string; bundleId: string; platform: 'Android' | 'iOS' },
): Promise<void> {
  await sql(
    executor,
    `INSERT INTO push_apps (id, company_id, name, bundle_id, platform) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
    [a.id, a.companyId, a.name, a.bundleId, a.platform],
  );
}

/** Whether a stored demo key is still live and belongs to the app. */
export async function isLivePushKey(executor: Executor, keyId: string, keyHash: string, appId: string): Promise<boolean> {
  const { rows } = await sql(
    executor,
    `SELECT 1 FROM push_api_keys WHERE id = $1 AND key_hash = $2 AND app_id = $3 AND revoked_at IS NULL`,
    [keyId, keyHash, appId],
  );
  return rows.length > 0;
}

// push_users, push_companies, push_memberships: push accounts and the company each
// belongs to (contracts.md, "Ownership"). Emails are stored lower-cased.
import { PushCompany, PushMembership, PushUser } from '../entities';
import { managerOf, sql, type Executor } from '../db';

/** A user with the company it acts for (its first membership: a company of one today). */
export interface PushUserRow {
  id: string;
  email: string;
  name: string;
  passwordHash: string;
  isSuperAdmin: boolean;
  createdAt: Date;
  companyId: string | null;
}

const USER_COLUMNS = `u.id, u.email, u.name, u.password_hash AS "passwordHash", u.is_super_admin AS "isSuperAdmin",
  u.created_at AS "createdAt",
  (SELECT m.company_id FROM push_memberships m WHERE m.user_id = u.id ORDER BY m.created_at, m.company_id LIMIT 1) AS "companyId"`;

export async function findPushUserByEmail(executor: Executor, email: string): Promise<PushUserRow | null> {
  const { rows } = await sql<PushUserRow>(executor, `SELECT ${USER_COLUMNS} FROM push_users u WHERE u.email = $1`, [email]);
  return rows[0] ?? null;
}

export async function findPushUserById(executor: Executor, id: string): Promise<PushUserRow | null> {
  const { rows } = await sql<PushUserRow>(executor, `SELECT ${USER_COLUMNS} FROM push_users u WHERE u.id = $1`, [id]);
  return rows[0] ?? null;
}

export interface NewAccount {
  userId: string;
  companyId: string;
  email: string;
  name: string;
  passwordHash: string;
  companyName: string;
}

/**
 * Self-service registration: a company of one, its owner and the membership, in the
 * caller's transaction. A taken email surfaces as the unique violation on push_users_email_key.
 */
export async function insertAccount(executor: Executor, a: NewAccount): Promise<void> {
  const m = managerOf(executor);
  await m.insert(PushCompany, { id: a.companyId, name: a.companyName, status: 'active' });
  await m.insert(PushUser, { id: a.userId, email: a.email, name: a.name, passwordHash: a.passwordHash });
  await m.insert(PushMembership, { userId: a.userId, companyId: a.companyId, role: 'owner' });
}

/** Postgres's unique violation on the email: the account exists already. */
export function isDuplicateEmail(err: unknown): boolean {
  const e = err as { code?: string; constraint?: string; driverError?: { code?: string; constraint?: string } };
  const d = e?.driverError ?? e;
  return d?.code === '23505' && d?.constraint === 'push_users_email_key';
}

/** Whether the company is a trial whose end has passed (contracts.md: its keys and tokens answer 403 TRIAL_EXPIRED). */
export async function isPushTrialExpired(executor: Executor, companyId: string): Promise<boolean> {
  const { rows } = await sql<{ expired: boolean }>(
    executor,
    `SELECT (status = 'trial' AND trial_ends_at IS NOT NULL AND trial_ends_at <= now()) AS expired FROM push_companies WHERE id = $1`,
    [companyId],
  );
  return rows[0]?.expired ?? false;
}

/** Makes the company a trial that ends `seconds` from now by the database clock (negative: ended). */
export async function setPushTrialEnd(executor: Executor, companyId: string, seconds: number): Promise<void> {
  await sql(executor, `UPDATE push_companies SET status = 'trial', trial_ends_at = now() + make_interval(secs => $2) WHERE id = $1`, [companyId, seconds]);
}

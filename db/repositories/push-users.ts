// push_users, push_companies, push_memberships: push accounts and the company each
// belongs to (docs/push.md, "Ownership"). Emails are stored lower-cased.
import { PushCompany, PushMembership, PushUser } from '../entities';
import type { PushUserRow } from '../../domain/auth/types';
import { managerOf, sql, type Executor } from '../db';

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

/**
 * Whether the company's trial has ended (docs/push.md: its keys and tokens answer 403
 * TRIAL_EXPIRED): marked trial_expired by its trial's workflow, or a trial whose end has
 * passed and whose workflow has not got there yet.
 */
export const TRIAL_EXPIRED_SQL = (c: string) =>
  `(${c}.status = 'trial_expired' OR (${c}.status = 'trial' AND ${c}.trial_ends_at IS NOT NULL AND ${c}.trial_ends_at <= now()))`;

export async function isPushTrialExpired(executor: Executor, companyId: string): Promise<boolean> {
  const { rows } = await sql<{ expired: boolean }>(
    executor,
    `SELECT ${TRIAL_EXPIRED_SQL('c')} AS expired FROM push_companies c WHERE c.id = $1`,
    [companyId],
  );
  return rows[0]?.expired ?? false;
}

/** Makes the company a trial that ends `seconds` from now by the database clock (negative: ended). */
export async function setPushTrialEnd(executor: Executor, companyId: string, seconds: number): Promise<void> {
  await sql(executor, `UPDATE push_companies SET status = 'trial', trial_ends_at = now() + make_interval(secs => $2) WHERE id = $1`, [companyId, seconds]);
}

/**
 * Trial approval: the company (a trial ending at `trialEndsAt`, on the approved plan), its
 * owner without a password (the setup link sets it) and the membership, in the caller's
 * transaction. A taken email surfaces as the unique violation on push_users_email_key.
 */
export async function insertTrialAccount(
  executor: Executor,
  a: { companyId: string; companyName: string; planSlug: string; trialEndsAt: Date; userId: string; email: string; name: string },
): Promise<void> {
  const m = managerOf(executor);
  await m.insert(PushCompany, { id: a.companyId, name: a.companyName, status: 'trial', trialEndsAt: a.trialEndsAt, planSlug: a.planSlug });
  await m.insert(PushUser, { id: a.userId, email: a.email, name: a.name, passwordHash: null });
  await m.insert(PushMembership, { userId: a.userId, companyId: a.companyId, role: 'owner' });
}

export async function setPushUserPassword(executor: Executor, userId: string, passwordHash: string): Promise<void> {
  await sql(executor, `UPDATE push_users SET password_hash = $2, updated_at = now() WHERE id = $1`, [userId, passwordHash]);
}

/**
 * The trial's end at `at`: a trial whose stored end is at or before `at` becomes
 * trial_expired. Answers the stored end and whether it expired now (an extension moved
 * the end: not expired).
 */
export async function expireTrialCompany(executor: Executor, companyId: string, at: Date): Promise<{ expired: boolean; trialEndsAt: Date | null }> {
  const { rows } = await sql<{ status: string; trialEndsAt: Date | null; changed: boolean }>(
    executor,
    `WITH changed AS (
       UPDATE push_companies SET status = 'trial_expired' WHERE id = $1 AND status = 'trial' AND trial_ends_at <= $2 RETURNING id)
     SELECT c.trial_ends_at AS "trialEndsAt", EXISTS (SELECT 1 FROM changed) AS changed FROM push_companies c WHERE c.id = $1`,
    [companyId, at],
  );
  return { expired: rows[0]?.changed ?? false, trialEndsAt: rows[0]?.trialEndsAt ?? null };
}

/**
 * Extends a trial by `days`: from its stored end while it runs, from `at` once it ended;
 * the company is a trial again. Answers the new end (null: no such company).
 */
export async function extendTrialCompany(executor: Executor, companyId: string, days: number, at: Date): Promise<Date | null> {
  const { rows } = await sql<{ trialEndsAt: Date }>(
    executor,
    `UPDATE push_companies SET status = 'trial',
            trial_ends_at = GREATEST(COALESCE(trial_ends_at, $3), $3) + make_interval(days => $2)
      WHERE id = $1 RETURNING trial_ends_at AS "trialEndsAt"`,
    [companyId, days, at],
  );
  return rows[0]?.trialEndsAt ?? null;
}

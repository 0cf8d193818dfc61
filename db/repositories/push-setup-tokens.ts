// push_setup_tokens: the hashes of the links that let an approved owner set a password
// (lib/setup-tokens.ts). A token is open while not used, voided (a newer one was made) or
// expired (its 7-day timer, or its expires_at by the request's clock).
import type { SetupTokenRow } from '../../domain/onboarding/types';
import { sql, type Executor } from '../db';

export interface NewSetupToken {
  id: string;
  trialRequestId: string;
  userId: string;
  tokenHash: string;
  purpose: 'email' | 'link';
  createdAt: Date;
  expiresAt: Date;
}

/**
 * Stores the token and voids the owner's other open tokens; a repeat of the same id
 * (a retried activity) changes nothing. Answers whether this call stored it.
 */
export async function insertSetupToken(ex: Executor, t: NewSetupToken): Promise<boolean> {
  const { rowCount } = await sql(
    ex,
    `INSERT INTO push_setup_tokens (id, trial_request_id, user_id, token_hash, purpose, created_at, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING`,
    [t.id, t.trialRequestId, t.userId, t.tokenHash, t.purpose, t.createdAt, t.expiresAt],
  );
  if (!rowCount) return false;
  await sql(
    ex,
    `UPDATE push_setup_tokens SET voided_at = now()
      WHERE user_id = $1 AND id <> $2 AND used_at IS NULL AND voided_at IS NULL AND expired_at IS NULL`,
    [t.userId, t.id],
  );
  return true;
}

/** The token with this hash, with whom it is for; `open` = not used, voided or marked expired. */
export async function findSetupTokenByHash(ex: Executor, tokenHash: string, opts: { lock?: boolean } = {}): Promise<SetupTokenRow | null> {
  const { rows } = await sql<SetupTokenRow>(
    ex,
    `SELECT t.id, t.trial_request_id AS "trialRequestId", t.user_id AS "userId", t.expires_at AS "expiresAt",
            (t.used_at IS NULL AND t.voided_at IS NULL AND t.expired_at IS NULL) AS open,
            u.email, r.full_name AS "fullName", r.company_name AS "companyName"
       FROM push_setup_tokens t JOIN push_users u ON u.id = t.user_id JOIN push_trial_requests r ON r.id = t.trial_request_id
      WHERE t.token_hash = $1${opts.lock ? ' FOR UPDATE OF t' : ''}`,
    [tokenHash],
  );
  return rows[0] ?? null;
}

export async function findSetupTokenById(ex: Executor, id: string): Promise<{ id: string; trialRequestId: string; userId: string; expiresAt: Date; open: boolean } | null> {
  const { rows } = await sql(
    ex,
    `SELECT id, trial_request_id AS "trialRequestId", user_id AS "userId", expires_at AS "expiresAt",
            (used_at IS NULL AND voided_at IS NULL AND expired_at IS NULL) AS open
       FROM push_setup_tokens WHERE id = $1`,
    [id],
  );
  return rows[0] ?? null;
}

/** Spends an open token (single use); false when it was not open. */
export async function spendSetupToken(ex: Executor, id: string): Promise<boolean> {
  const { rowCount } = await sql(
    ex,
    `UPDATE push_setup_tokens SET used_at = now() WHERE id = $1 AND used_at IS NULL AND voided_at IS NULL AND expired_at IS NULL`,
    [id],
  );
  return (rowCount ?? 0) > 0;
}

/** The 7-day timer: the token expired, if still open. */
export async function markSetupTokenExpired(ex: Executor, id: string): Promise<void> {
  await sql(ex, `UPDATE push_setup_tokens SET expired_at = now() WHERE id = $1 AND used_at IS NULL AND voided_at IS NULL AND expired_at IS NULL`, [id]);
}

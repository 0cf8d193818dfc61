// push_trial_requests and push_audit_events: public trial requests, the operator's
// decision, the setup email's bookkeeping, and who did what (docs/trial-onboarding.md).
// The API inserts a request; from then on its workflow's activities write it
// (domain/onboarding). Each decision is a compare-and-set on the status.
import { randomUUID } from 'node:crypto';
import { sql, type Executor } from '../db';
import type { NewTrialRequest, TrialRequestRecord, TrialRequestStatus } from '../../domain/onboarding/types';

const COLUMNS = `r.id, r.status, r.email, r.full_name AS "fullName", r.company_name AS "companyName", r.website,
  r.use_case AS "useCase", r.expected_monthly_notifications AS "expectedMonthlyNotifications",
  r.requested_plan_slug AS "requestedPlanSlug", r.plan_slug AS "planSlug", r.trial_days AS "trialDays",
  r.admin_notes AS "adminNotes", r.decided_by AS "decidedBy", r.decided_at AS "decidedAt",
  r.company_id AS "companyId", r.owner_id AS "ownerId",
  c.status AS "companyStatus", c.trial_ends_at AS "trialEndsAt",
  (SELECT max(t.used_at) FROM push_setup_tokens t WHERE t.trial_request_id = r.id) AS "passwordSetAt",
  r.setup_email_state AS "setupEmailState", r.setup_email_attempts AS "setupEmailAttempts",
  r.setup_email_last_attempt_at AS "setupEmailLastAttemptAt", r.setup_email_provider AS "setupEmailProvider",
  r.setup_email_message_id AS "setupEmailMessageId", r.setup_email_last_error AS "setupEmailLastError",
  r.setup_link_generated_at AS "setupLinkGeneratedAt", r.reminded_for AS "remindedFor",
  r.created_at AS "createdAt", r.updated_at AS "updatedAt"`;
const FROM = `push_trial_requests r LEFT JOIN push_companies c ON c.id = r.company_id`;

/** A new Submitted request, or null when an open one (Submitted or Approved) has the email (any letter case). */
export async function insertTrialRequest(ex: Executor, r: NewTrialRequest): Promise<{ id: string } | null> {
  const { rows } = await sql<{ id: string }>(
    ex,
    `INSERT INTO push_trial_requests (id, email, full_name, company_name, website, use_case, expected_monthly_notifications, requested_plan_slug)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
     ON CONFLICT (lower(email)) WHERE status IN ('Submitted','Approved') DO NOTHING
     RETURNING id`,
    [randomUUID(), r.email, r.fullName, r.companyName, r.website, r.useCase, r.expectedMonthlyNotifications, r.requestedPlanSlug],
  );
  return rows[0] ?? null;
}

export async function findOpenTrialRequestByEmail(ex: Executor, email: string): Promise<TrialRequestRecord | null> {
  const { rows } = await sql<TrialRequestRecord>(
    ex,
    `SELECT ${COLUMNS} FROM ${FROM} WHERE lower(r.email) = lower($1) AND r.status IN ('Submitted','Approved')`,
    [email],
  );
  return rows[0] ?? null;
}

export async function findTrialRequest(ex: Executor, id: string, opts: { lock?: boolean } = {}): Promise<TrialRequestRecord | null> {
  const lock = opts.lock ? ' FOR UPDATE OF r' : '';
  const { rows } = await sql<TrialRequestRecord>(ex, `SELECT ${COLUMNS} FROM ${FROM} WHERE r.id = $1${lock}`, [id]);
  return rows[0] ?? null;
}

/** Requests newest first, of one status or all, and how many there are. */
export async function listTrialRequests(
  ex: Executor,
  status: TrialRequestStatus | null,
  offset: number,
  limit: number,
): Promise<{ items: TrialRequestRecord[]; total: number }> {
  const [items, total] = await Promise.all([
    sql<TrialRequestRecord>(
      ex,
      `SELECT ${COLUMNS} FROM ${FROM} WHERE ($1::text IS NULL OR r.status = $1) ORDER BY r.created_at DESC, r.id DESC OFFSET $2 LIMIT $3`,
      [status, offset, limit],
    ),
    sql<{ n: number }>(ex, `SELECT count(*)::int AS n FROM push_trial_requests WHERE ($1::text IS NULL OR status = $1)`, [status]),
  ]);
  return { items: items.rows, total: total.rows[0].n };
}

/** Submitted → Approved with the decision and what it provisioned; false when it was not Submitted. */
export async function markApproved(
  ex: Executor,
  id: string,
  d: { planSlug: string; trialDays: number; adminNotes: string | null; actorId: string; companyId: string; ownerId: string },
): Promise<boolean> {
  const { rowCount } = await sql(
    ex,
    `UPDATE push_trial_requests SET status = 'Approved', plan_slug = $2, trial_days = $3, admin_notes = $4, decided_by = $5,
            decided_at = now(), company_id = $6, owner_id = $7, updated_at = now()
      WHERE id = $1 AND status = 'Submitted'`,
    [id, d.planSlug, d.trialDays, d.adminNotes, d.actorId, d.companyId, d.ownerId],
  );
  return (rowCount ?? 0) > 0;
}

/** Submitted → Rejected with the notes; false when it was not Submitted. */
export async function markRejected(ex: Executor, id: string, d: { adminNotes: string; actorId: string }): Promise<boolean> {
  const { rowCount } = await sql(
    ex,
    `UPDATE push_trial_requests SET status = 'Rejected', admin_notes = $2, decided_by = $3, decided_at = now(), updated_at = now()
      WHERE id = $1 AND status = 'Submitted'`,
    [id, d.adminNotes, d.actorId],
  );
  return (rowCount ?? 0) > 0;
}

/** One setup email attempt: who took it (or the log), its id, the errors before it. */
export async function recordSetupEmailAttempt(
  ex: Executor,
  id: string,
  a: { state: 'sent' | 'logged'; provider: string; messageId: string | null; lastError: string | null },
): Promise<void> {
  await sql(
    ex,
    `UPDATE push_trial_requests SET setup_email_state = $2, setup_email_attempts = setup_email_attempts + 1,
            setup_email_last_attempt_at = now(), setup_email_provider = $3, setup_email_message_id = $4,
            setup_email_last_error = $5, updated_at = now()
      WHERE id = $1`,
    [id, a.state, a.provider, a.messageId, a.lastError],
  );
}

export async function recordSetupLinkGenerated(ex: Executor, id: string, at: Date): Promise<void> {
  await sql(ex, `UPDATE push_trial_requests SET setup_link_generated_at = $2, updated_at = now() WHERE id = $1`, [id, at]);
}

/** Claims the reminder of the trial ending at `trialEndsAt`: true once per end. */
export async function claimReminder(ex: Executor, id: string, trialEndsAt: Date): Promise<boolean> {
  const { rowCount } = await sql(
    ex,
    `UPDATE push_trial_requests SET reminded_for = $2, updated_at = now() WHERE id = $1 AND reminded_for IS DISTINCT FROM $2`,
    [id, trialEndsAt],
  );
  return (rowCount ?? 0) > 0;
}

export interface AuditEvent {
  type: string;
  trialRequestId?: string | null;
  companyId?: string | null;
  actorId?: string | null;
  details?: Record<string, unknown>;
}

export async function insertAuditEvent(ex: Executor, e: AuditEvent): Promise<void> {
  await sql(
    ex,
    `INSERT INTO push_audit_events (id, type, trial_request_id, company_id, actor_id, details) VALUES ($1, $2, $3, $4, $5, $6::jsonb)`,
    [randomUUID(), e.type, e.trialRequestId ?? null, e.companyId ?? null, e.actorId ?? null, JSON.stringify(e.details ?? {})],
  );
}

/** A request's audit trail, oldest first. */
export async function listAuditEvents(ex: Executor, trialRequestId: string): Promise<Array<{ type: string; actorId: string | null; createdAt: Date; details: Record<string, unknown> }>> {
  const { rows } = await sql(
    ex,
    `SELECT type, actor_id AS "actorId", created_at AS "createdAt", details FROM push_audit_events WHERE trial_request_id = $1 ORDER BY created_at, id`,
    [trialRequestId],
  );
  return rows;
}

import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/db';
import { findTrialRequest, insertAuditEvent, markApproved, markRejected } from '../../db/repositories/push-trial-requests';
import { insertTrialAccount, isDuplicateEmail } from '../../db/repositories/push-users';
import { trialEmailTaken, trialRequestDecided, trialRequestNotFound } from './errors';

export interface Approval {
  requestId: string;
  planSlug: string;
  trialDays: number;
  adminNotes: string | null;
  actorId: string;
  trialEndsAt: Date;
}


/**
 * Approval, in one transaction: the company (a trial until `trialEndsAt`, on the plan),
 * its owner without a password, the membership, the request Approved, audit
 * `trial_request.approved`. A repeat (a retried activity) answers what the first made.
 * Refuses with email_taken when an account has the request's email already.
 */
export async function provisionTrial(db: Db, a: Approval): Promise<{ companyId: string; ownerId: string; trialEndsAt: Date }> {
  return db.transaction(async (m) => {
    const r = await findTrialRequest(m, a.requestId, { lock: true });
    if (!r) throw trialRequestNotFound(a.requestId);
    if (r.status === 'Approved') return { companyId: r.companyId!, ownerId: r.ownerId!, trialEndsAt: r.trialEndsAt! };
    if (r.status !== 'Submitted') throw trialRequestDecided(r);
    const companyId = randomUUID();
    const ownerId = randomUUID();
    try {
      await insertTrialAccount(m, {
        companyId,
        companyName: r.companyName,
        planSlug: a.planSlug,
        trialEndsAt: a.trialEndsAt,
        userId: ownerId,
        email: r.email.toLowerCase(),
        name: r.fullName,
      });
    } catch (err) {
      if (isDuplicateEmail(err)) throw trialEmailTaken(r.email);
      throw err;
    }
    await markApproved(m, r.id, { planSlug: a.planSlug, trialDays: a.trialDays, adminNotes: a.adminNotes, actorId: a.actorId, companyId, ownerId });
    await insertAuditEvent(m, {
      type: 'trial_request.approved',
      trialRequestId: r.id,
      companyId,
      actorId: a.actorId,
      details: { planSlug: a.planSlug, trialDays: a.trialDays, trialEndsAt: a.trialEndsAt.toISOString() },
    });
    return { companyId, ownerId, trialEndsAt: a.trialEndsAt };
  });
}


/** Rejection with the operator's notes and audit `trial_request.rejected`; a repeat is a no-op. */
export async function rejectTrialRequest(db: Db, input: { requestId: string; adminNotes: string; actorId: string }): Promise<void> {
  await db.transaction(async (m) => {
    const r = await findTrialRequest(m, input.requestId, { lock: true });
    if (!r) throw trialRequestNotFound(input.requestId);
    if (r.status === 'Rejected') return;
    if (!(await markRejected(m, r.id, input))) throw trialRequestDecided(r);
    await insertAuditEvent(m, { type: 'trial_request.rejected', trialRequestId: r.id, actorId: input.actorId, details: {} });
  });
}

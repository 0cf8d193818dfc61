// The trial's end and its extensions (docs/push.md, "Ownership"): the trial workflow
// calls these with its own time (`at`), so a time-skipping test moves them together.
import type { Db } from '../../db/db';
import { findTrialRequest, insertAuditEvent } from '../../db/repositories/push-trial-requests';
import { expireTrialCompany, extendTrialCompany } from '../../db/repositories/push-users';
import { trialRequestNotApproved, trialRequestNotFound } from './errors';

async function approvedCompany(db: Db, requestId: string): Promise<string> {
  const r = await findTrialRequest(db, requestId);
  if (!r) throw trialRequestNotFound(requestId);
  if (!r.companyId) throw trialRequestNotApproved(requestId, 'has no company');
  return r.companyId;
}

/** At `at`: the company becomes trial_expired unless its stored end is later; answers that end. */
export async function expireTrial(db: Db, input: { requestId: string; at: Date }): Promise<{ expired: boolean; trialEndsAt: Date | null }> {
  const companyId = await approvedCompany(db, input.requestId);
  return db.transaction(async (m) => {
    const result = await expireTrialCompany(m, companyId, input.at);
    if (result.expired) await insertAuditEvent(m, { type: 'trial.expired', trialRequestId: input.requestId, companyId, details: {} });
    return result;
  });
}

/** The trial `days` longer (from its end, or from `at` once ended); the company a trial again. */
export async function extendTrial(db: Db, input: { requestId: string; days: number; at: Date; actorId: string }): Promise<Date> {
  const companyId = await approvedCompany(db, input.requestId);
  return db.transaction(async (m) => {
    const end = await extendTrialCompany(m, companyId, input.days, input.at);
    if (!end) throw trialRequestNotFound(input.requestId);
    await insertAuditEvent(m, { type: 'trial.extended', trialRequestId: input.requestId, companyId, actorId: input.actorId, details: { days: input.days, trialEndsAt: end.toISOString() } });
    return end;
  });
}

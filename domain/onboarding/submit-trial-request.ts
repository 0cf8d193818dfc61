import type { Db } from '../../db/db';
import { findOpenTrialRequestByEmail, findTrialRequest, insertAuditEvent, insertTrialRequest } from '../../db/repositories/push-trial-requests';
import { enqueueWorkflowStart, type OutboxStart } from '../../db/repositories/workflow-starts';
import type { NewTrialRequest, TrialRequestRecord } from './types';

/**
 * A public trial request: the row, audit `trial_request.submitted` and its workflow's
 * outbox entry in one transaction (a request and its workflow exist together or not at
 * all). An open request for the same email (any letter case) is answered instead, with
 * `created: false`: a visitor who submits twice gets one request.
 */
export async function submitTrialRequest(
  db: Db,
  r: NewTrialRequest,
  workflowStart: (requestId: string) => OutboxStart,
): Promise<{ request: TrialRequestRecord; created: boolean }> {
  return db.transaction(async (m) => {
    const inserted = await insertTrialRequest(m, r);
    if (!inserted) {
      const open = await findOpenTrialRequestByEmail(m, r.email);
      // the open one was decided (rejected) between the insert and this read: try again
      return open ? { request: open, created: false } : submitTrialRequest(db, r, workflowStart);
    }
    await insertAuditEvent(m, { type: 'trial_request.submitted', trialRequestId: inserted.id, details: { email: r.email } });
    await enqueueWorkflowStart(m, workflowStart(inserted.id));
    return { request: (await findTrialRequest(m, inserted.id))!, created: true };
  });
}

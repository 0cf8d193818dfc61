// The layer between the trial request routes and Temporal (docs/trial-onboarding.md). A
// submission is a domain command with the request's workflow, `trial-request/<id>` on the
// `onboarding` queue, as its outbox entry (workflows/onboarding/contract.ts,
// trialRequestWorkflowStart); every operator action is an Update to that workflow
// through the one Update path (api/kit/workflow-update.ts), whose refusals
// (trial_request_decided, trial_request_not_approved, email_taken,
// password_already_set) are conflicts: 409 CONFLICT.
import type { UpdateDefinition } from '@temporalio/common';
import { findTrialRequest } from '../../../db/repositories/push-trial-requests';
import { DomainError } from '../../../domain/errors';
import type { TrialRequestRecord } from '../../../domain/onboarding/types';
import { masterKey } from '../../../lib/crypto/master-key';
import { setupTokenKey, setupTokenOf, setupUrlOf } from '../../../lib/setup-tokens';
import { trialRequestWorkflowId } from '../../../workflows/onboarding/contract';
import type { AppDeps } from '../../deps';
import { errors } from '../../kit/errors';
import { isUuid } from '../../kit/uuid';
import { updateWorkflow } from '../../kit/workflow-update';

export async function storedRequest(deps: AppDeps, id: string): Promise<TrialRequestRecord> {
  // a malformed id and an unknown one: the same 404
  const r = isUuid(id) ? await findTrialRequest(deps.db, id) : null;
  if (!r) throw errors.noSuch('trial request', id);
  return r;
}

/** An operator's action on the request's workflow; a workflow that has ended (rejected, or its trial long over) takes no more: 409. */
export function act<Ret, Args extends unknown[]>(deps: AppDeps, requestId: string, update: UpdateDefinition<Ret, Args>, args: Args): Promise<Ret> {
  return updateWorkflow(deps, {
    workflowId: trialRequestWorkflowId(requestId),
    update,
    args,
    onEnded: async () => {
      const r = await storedRequest(deps, requestId);
      throw new DomainError('conflict', 'trial_request_decided', `Trial request '${r.id}' is ${r.status}; it takes no more actions`);
    },
  });
}

/** The raw set-password link of token `tokenId` (derived, never stored: lib/setup-tokens.ts). */
export function setupUrlFor(deps: AppDeps, tokenId: string): string {
  return setupUrlOf(deps.config.appUrl, setupTokenOf(setupTokenKey(masterKey(deps.config)), tokenId));
}

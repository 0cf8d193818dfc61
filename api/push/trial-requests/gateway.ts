// The layer between the trial request routes and Temporal (docs/trial-onboarding.md). A
// submission is a domain command with the request's workflow, `trial-request/<id>` on the
// `onboarding` queue, as its outbox entry; every operator action is an Update to that
// workflow (update-with-start while its entry waits: api/kit/entity-update.ts), whose
// refusals are 409s.
import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure, type UpdateDefinition } from '@temporalio/common';
import { findTrialRequest } from '../../../db/repositories/push-trial-requests';
import type { OutboxStart } from '../../../db/repositories/workflow-starts';
import type { TrialRequestRecord } from '../../../domain/onboarding/types';
import { masterKey } from '../../../lib/crypto/master-key';
import { setupTokenKey, setupTokenOf, setupUrlOf } from '../../../lib/setup-tokens';
import {
  ALREADY_DECIDED,
  NOT_APPROVED,
  ONBOARDING_QUEUE,
  TRIAL_REQUEST_WORKFLOW_TYPE,
  trialRequestWorkflowId,
  type TrialRequestInput,
} from '../../../workflows/trial-request/contract';
import type { AppDeps } from '../../deps';
import { isEndedWorkflow, updateEntityWorkflow } from '../../kit/entity-update';
import { AppError, errors } from '../../kit/errors';
import { isUuid } from '../../kit/uuid';

/** The workflow's and its activities' refusals (workflows/trial-request/contract.ts, domain/onboarding): 409 CONFLICT. */
const REFUSALS = new Set([ALREADY_DECIDED, NOT_APPROVED, 'email_taken', 'password_already_set']);

/** Temporal calls of a request end within this many ms (then 503 a second later at the most). */
const TEMPORAL_DEADLINE_MS = 6000;

/** A request's entry in the workflow-start outbox. */
export function trialRequestWorkflowStart(deps: AppDeps) {
  return (requestId: string): OutboxStart => {
    const searchAttributes = deps.config.temporalSearchAttributes;
    const input: TrialRequestInput = { requestId, searchAttributes };
    return {
      workflowId: trialRequestWorkflowId(requestId),
      workflowType: TRIAL_REQUEST_WORKFLOW_TYPE,
      taskQueue: ONBOARDING_QUEUE,
      args: [input],
      searchAttributes: searchAttributes ? { TrialStatus: ['Submitted'] } : undefined,
    };
  };
}

export async function storedRequest(deps: AppDeps, id: string): Promise<TrialRequestRecord> {
  // a malformed id and an unknown one: the same 404
  const r = isUuid(id) ? await findTrialRequest(deps.db, id) : null;
  if (!r) throw errors.noSuch('trial request', id);
  return r;
}

/** An operator's action on the request's workflow; its refusals (decided, not approved, email taken) are 409s. */
export async function act<Ret, Args extends unknown[]>(deps: AppDeps, requestId: string, update: UpdateDefinition<Ret, Args>, args: Args): Promise<Ret> {
  try {
    return await updateEntityWorkflow(deps, {
      workflowId: trialRequestWorkflowId(requestId),
      workflowType: TRIAL_REQUEST_WORKFLOW_TYPE,
      update,
      args,
      deadlineMs: TEMPORAL_DEADLINE_MS,
    });
  } catch (err) {
    if (err instanceof AppError) throw err;
    const failure = err instanceof WorkflowUpdateFailedError ? err.cause : undefined;
    if (failure instanceof ApplicationFailure && failure.type && REFUSALS.has(failure.type)) {
      throw errors.conflict(failure.type, failure.message);
    }
    if (isEndedWorkflow(err)) {
      const r = await storedRequest(deps, requestId);
      throw errors.conflict('trial_request_decided', `Trial request '${r.id}' is ${r.status}; it takes no more actions`);
    }
    deps.logger.error({ err, requestId }, 'trial request action failed');
    throw errors.unavailable();
  }
}

/** The raw set-password link of token `tokenId` (derived, never stored: lib/setup-tokens.ts). */
export function setupUrlFor(deps: AppDeps, tokenId: string): string {
  return setupUrlOf(deps.config.appUrl, setupTokenOf(setupTokenKey(masterKey(deps.config)), tokenId));
}

// How the Update path (workflow-update.ts) reads a failed Temporal call: by the SDK's
// error types, never by message text.
import { WorkflowExecutionAlreadyStartedError, WorkflowUpdateFailedError } from '@temporalio/client';
import { ActivityFailure, ApplicationFailure, WorkflowNotFoundError } from '@temporalio/common';
import { fromRefusal, type DomainError } from '../../domain/errors';

/**
 * The DomainError an Update failed with: refused by its validator or handler
 * (workflows/refusal.ts), or by an activity its handler called and let fail, which
 * arrives wrapped in an ActivityFailure (activities/failures.ts). Null for anything that
 * is not a domain refusal (a time-out, a crash, a failure without the refusal's details).
 */
export function refusalOf(err: unknown): DomainError | null {
  if (!(err instanceof WorkflowUpdateFailedError)) return null;
  const failure = err.cause instanceof ActivityFailure ? err.cause.cause : err.cause;
  return failure instanceof ApplicationFailure ? fromRefusal(failure.type, failure.message, failure.details) : null;
}

/**
 * Whether the workflow can no longer take an Update: it never ran, or its run has ended.
 * The server answers an Update to a closed run with gRPC NOT_FOUND "workflow execution
 * already completed", which @temporalio/client 1.24 raises as WorkflowNotFoundError, like
 * an id that never ran (test/api/workflow-update.test.ts shows both); an update-with-start
 * of an outbox entry whose run already ended is refused by REJECT_DUPLICATE as
 * WorkflowExecutionAlreadyStartedError.
 */
export function isEndedWorkflow(err: unknown): boolean {
  return err instanceof WorkflowNotFoundError || err instanceof WorkflowExecutionAlreadyStartedError;
}

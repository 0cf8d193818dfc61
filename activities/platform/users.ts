// The platform user workflows' activities (workflows/platform-user/contract.ts): the
// invitation email, the deactivation's ticket Updates, reactivation and erasure.
import { Context } from '@temporalio/activity';
import { WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import type { Db } from '../../db/db';
import { erasePlatformUser, listOpenTicketIdsAssignedTo } from '../../db/repositories/platform-users';
import { findWorkflowStart } from '../../db/repositories/workflow-starts';
import { sendInvitationEmail } from '../../domain/platform/invitation-email';
import { reactivateWithSignInLink } from '../../domain/platform/reactivate-with-sign-in-link';
import type { EmailChain } from '../../lib/email/types';
import { platformTicketWorkflowId, unassignUserUpdate } from '../../workflows/platform-ticket/contract';
import { platformInvitationStart, type PlatformUserActivities, type UnassignCounts, type UnassignOutcome } from '../../workflows/platform-user/contract';
import { withDomainFailures } from '../failures';
import { heartbeating } from '../heartbeat';

export interface PlatformUserActivityDeps {
  db: Db;
  chain: EmailChain;
  /** domain/platform/activation-token.ts activationTokenKey */
  tokenKey: Buffer;
  appUrl: string;
  /** sends the ticket Updates (workflow code cannot send an Update itself) */
  client?: Client;
  /** tickets a deactivation reads at a time (default 500; tests page with fewer) */
  unassignPageSize?: number;
}

/** How many ticket Updates one deactivation sends at once. */
const UPDATES_IN_FLIGHT = 8;

/**
 * Sends `unassignUserUpdate` to one ticket's workflow. A ticket whose workflow no longer
 * exists (ended, purged) is 'skipped'; one whose start is still in the outbox throws, so
 * the step is retried once it runs.
 */
export async function unassignTicketOfUser(deps: Pick<PlatformUserActivityDeps, 'db' | 'client'>, ticketId: string, userId: string): Promise<UnassignOutcome> {
  if (!deps.client) throw new Error('the platform activities have no Temporal client');
  const workflowId = platformTicketWorkflowId(ticketId);
  try {
    const reply = await deps.client.workflow.getHandle(workflowId).executeUpdate(unassignUserUpdate, { args: [{ userId }] });
    return reply.changed ? 'unassigned' : 'unchanged';
  } catch (err) {
    // the ticket's workflow refused (a rule of its own): nothing to retry, the ticket stays as it is
    if (err instanceof WorkflowUpdateFailedError) return 'unchanged';
    if (!(err instanceof WorkflowNotFoundError)) throw err;
    // not started yet (its entry still in the outbox): retried until it runs
    if (await findWorkflowStart(deps.db, workflowId)) throw new Error(`${workflowId} is not started yet`);
    return 'skipped'; // ended or purged: nothing of it to unassign
  }
}

/** Where a deactivation's unassigning stands, in its heartbeat: the last id done and the counts so far. */
interface UnassignProgress extends UnassignCounts {
  afterId: string | null;
}

export function createPlatformUserActivities(deps: PlatformUserActivityDeps): PlatformUserActivities {
  const { db } = deps;
  return withDomainFailures<PlatformUserActivities>({
    sendPlatformInvitationEmail: (input) => heartbeating(() => sendInvitationEmail(db, deps, input, new Date())),
    async unassignOpenTicketsOfUser(userId) {
      const ctx = Context.current();
      const progress: UnassignProgress = (ctx.info.heartbeatDetails as UnassignProgress | undefined) ?? { afterId: null, unassigned: 0, skipped: 0 };
      for (;;) {
        const page = await listOpenTicketIdsAssignedTo(db, userId, progress.afterId, deps.unassignPageSize ?? 500);
        if (page.length === 0) return { unassigned: progress.unassigned, skipped: progress.skipped };
        for (let i = 0; i < page.length; i += UPDATES_IN_FLIGHT) {
          const outcomes = await Promise.all(page.slice(i, i + UPDATES_IN_FLIGHT).map((ticketId) => unassignTicketOfUser(deps, ticketId, userId)));
          progress.unassigned += outcomes.filter((o) => o === 'unassigned').length;
          progress.skipped += outcomes.filter((o) => o === 'skipped').length;
          progress.afterId = page[Math.min(i + UPDATES_IN_FLIGHT, page.length) - 1];
          ctx.heartbeat(progress);
        }
      }
    },
    // active again, with a sign-in link by email when they were active (their tokens stay revoked)
    reactivatePlatformUser: ({ userId, deactivation, at }) =>
      reactivateWithSignInLink(db, { userId, deactivation, at: new Date(at), tokenKey: deps.tokenKey, emailStart: platformInvitationStart }),
    erasePlatformUser: ({ userId, deactivation, at }) => erasePlatformUser(db, userId, deactivation, new Date(at)),
  });
}

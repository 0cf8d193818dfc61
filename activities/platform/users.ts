// The platform user workflows' activities (workflows/platform-user/contract.ts): the
// invitation email, the deactivation's ticket Updates, reactivation and erasure.
import { WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import type { Db } from '../../db/db';
import { erasePlatformUser, listOpenTicketIdsAssignedTo } from '../../db/repositories/platform-users';
import { findWorkflowStart } from '../../db/repositories/workflow-starts';
import { sendInvitationEmail } from '../../domain/platform/invitation-email';
import { reactivateWithSignInLink } from '../../domain/platform/reactivate-with-sign-in-link';
import type { EmailChain } from '../../lib/email/types';
import { platformTicketWorkflowId, unassignUserUpdate } from '../../workflows/platform-ticket/contract';
import { platformInvitationStart, type PlatformUserActivities } from '../../workflows/platform-user/contract';
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
}

export function createPlatformUserActivities(deps: PlatformUserActivityDeps): PlatformUserActivities {
  const { db } = deps;
  return withDomainFailures<PlatformUserActivities>({
    sendPlatformInvitationEmail: (input) => heartbeating(() => sendInvitationEmail(db, deps, input, new Date())),
    listOpenTicketsOfUser: (userId) => listOpenTicketIdsAssignedTo(db, userId),
    async unassignTicketOfUser({ ticketId, userId }) {
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
        if (await findWorkflowStart(db, workflowId)) throw new Error(`${workflowId} is not started yet`);
        return 'skipped'; // ended or purged: nothing of it to unassign
      }
    },
    // active again, with a sign-in link by email when they were active (their tokens stay revoked)
    reactivatePlatformUser: ({ userId, deactivation, at }) =>
      reactivateWithSignInLink(db, { userId, deactivation, at: new Date(at), tokenKey: deps.tokenKey, emailStart: platformInvitationStart }),
    erasePlatformUser: ({ userId, deactivation, at }) => erasePlatformUser(db, userId, deactivation, new Date(at)),
  });
}

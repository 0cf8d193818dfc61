import { bindIdempotencyResource } from '../../../db/repositories/idempotency-keys';
import { enqueueWorkflowStart } from '../../../db/repositories/workflow-starts';
import { isDomainError } from '../../../domain/errors';
import { storeNewTicket } from '../../../domain/tickets/store-new-ticket';
import type { CreateTicketInput } from '../../../domain/tickets/types';
import type { AppDeps } from '../../deps';
import { AppError } from '../../kit/errors';
import { errors } from '../errors';
import type { IdempotencyState } from '../../kit/idempotency';
import { ticketWorkflowStart } from './gateway';
import { quotaExceeded } from './quota';

/**
 * The create path (docs/tickets.md): one transaction writes the ticket row, its
 * `ticket.created` event, the month's usage, an outbox entry for its workflow and, under
 * an Idempotency-Key, the ticket's id on that key. The answer does not wait for Temporal:
 * the ticketing worker's start dispatcher starts `ticket/<id>` from the outbox (and a
 * change that arrives first starts it itself, gateway.ts). All or nothing: a row always
 * has its outbox entry until its workflow runs, and no workflow starts without its row.
 */
export async function createTicket(deps: AppDeps, input: CreateTicketInput, idem?: IdempotencyState): Promise<void> {
  try {
    await deps.db.tx(async (c) => {
      if (idem && !(await bindIdempotencyResource(c, idem.scope, idem.key, idem.token, input.ticketId))) {
        throw new LeaseLost();
      }
      await storeNewTicket(c, input);
      await enqueueWorkflowStart(c, ticketWorkflowStart({ ...input, stored: true }));
    });
  } catch (err) {
    if (err instanceof LeaseLost) {
      throw errors.conflict('idempotency_request_in_progress', 'A request with this Idempotency-Key is still in progress');
    }
    // the command's refusals, in the words this API has always used for them (the
    // player by the caller's id, the quota with its Retry-After)
    if (isDomainError(err)) {
      if (err.code === 'player_not_found') throw errors.playerNotFound(input.playerId);
      if (err.code === 'ticket_quota_exceeded') throw quotaExceeded(Number(err.details.limit));
      if (err.code === 'workspace_not_found') throw new AppError(404, 'not_found', `No workspace '${input.workspaceId}'`);
    }
    throw err; // a database that is down: the error middleware answers 503
  }
}

/** This request's lease on its Idempotency-Key lapsed and a retry took the key over. */
class LeaseLost extends Error {}

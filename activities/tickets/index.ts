import type { Db } from '../../db/db';
import { applyTicketChange } from '../../domain/tickets/apply-change';
import { storeNewTicket } from '../../domain/tickets/store-new-ticket';
import { triageTicket } from '../../domain/tickets/triage-ticket';
import type { Triager } from '../../domain/tickets/types';
import { loadWorkspaceSettings } from '../../domain/workspaces/load-settings';
import type { TicketActivities } from '../../workflows/ticket/activities.contract';
import { withDomainFailures } from '../failures';
import { sendResolutionNotification, type Mailer } from './notify';

/**
 * The ticket workflow's activities over their dependencies (passed in, so tests build
 * them over their own database, triager and mailer): thin adapters over the domain
 * commands of domain/tickets/, whose refusals become non-retryable failures.
 */
export function createTicketActivities(deps: { db: Db; triager: Triager; mailer: Mailer }): TicketActivities {
  const { db, triager, mailer } = deps;
  return withDomainFailures<TicketActivities>({
    // idempotent by ticket id: a retry after a lost reply finds the row the first attempt wrote
    insertTicket: (input) => db.transaction((m) => storeNewTicket(m, input)),
    triageTicket: (input) => triageTicket(db, triager, input),
    applyTicketChange: (req) => applyTicketChange(db, req),
    sendResolutionNotification: (input) => sendResolutionNotification(db, mailer, input),
    loadWorkspaceSettings: ({ workspaceId }) => loadWorkspaceSettings(db, workspaceId),
  });
}

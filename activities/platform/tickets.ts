// The platform ticket workflow's activities (workflows/platform-ticket/contract.ts): thin
// adapters over the domain commands.
import type { Db } from '../../db/db';
import { applyPlatformTicketChange } from '../../domain/platform/apply-ticket-change';
import { matchPlatformAutomations } from '../../domain/platform/automation-step';
import { purgePlatformTicket } from '../../domain/platform/purge-ticket';
import { breachPlatformTicketSla, readPlatformTicketSla } from '../../domain/platform/ticket-sla';
import type { PlatformTicketActivities } from '../../workflows/platform-ticket/contract';
import { withDomainFailures } from '../failures';

export function createPlatformTicketActivities({ db }: { db: Db }): PlatformTicketActivities {
  return withDomainFailures<PlatformTicketActivities>({
    applyPlatformTicketStep: (step) => applyPlatformTicketChange(db, step),
    purgePlatformTicket: (ticketId) => purgePlatformTicket(db, ticketId),
    matchPlatformAutomations: (q) => matchPlatformAutomations(db, q),
    readPlatformTicketSla: (ticketId) => readPlatformTicketSla(db, ticketId),
    breachPlatformTicketSla: (req) => breachPlatformTicketSla(db, req),
  });
}

// What a platform ticket's workflow reads right after a patch or a reply, read by the step's
// own local activity in its transaction (docs/platform.md, "Steps and what follows them").
// The workflow is the ticket's only writer, so the row is the one a separate read right
// after would see; reading it here saves the workflow one or two local activities per
// change (each a workflow activation and a marker). A result without them (code before
// this, or a step answered as stored) makes the workflow read them itself, as before.
import type { SqlExecutor } from '../../db/db';
import { matchPlatformAutomations } from './automation-step';
import { readPlatformTicketSla } from './ticket-sla';
import type { PlatformTicketFollowUps, PlatformTicketStep } from './ticket-step';

export async function followUpsOf(m: SqlExecutor, step: PlatformTicketStep): Promise<PlatformTicketFollowUps | undefined> {
  const c = step.change;
  if (c.kind !== 'patch' && c.kind !== 'reply') return undefined;
  // the first round of the automations that follow a change that records ticket.updated
  const automations = await matchPlatformAutomations(m, { ticketId: step.ticketId, trigger: 'ticket.updated', exclude: [] });
  // a priority change moves the SLA deadlines (workflows/platform-ticket/sla-timers.ts afterStep)
  if (c.kind === 'patch' && c.priority !== undefined) return { automations, sla: await readPlatformTicketSla(m, step.ticketId) };
  return { automations };
}

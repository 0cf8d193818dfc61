import { allHandlersFinished, condition, continueAsNew, workflowInfo } from '@temporalio/workflow';
import { nextDeadline } from '../../domain/tickets/rules';
import type { CreateTicketInput } from './contract';
import { setChangeHandlers } from './ticket-changes';
import { createTicket } from './ticket-creation';
import { newTicketRun, type CarriedState } from './ticket-run';
import { fire } from './ticket-timers';

/**
 * One workflow per ticket (`ticket/<tkt_id>`): the single writer of its ticket. It
 * stores the ticket, triages it (ticket-creation.ts), and owns the SLA and auto-close
 * timers (ticket-timers.ts); every change arrives as an Update whose validator gives the
 * API its synchronous 409/422 (ticket-changes.ts).
 */
export async function ticketWorkflow(input: CreateTicketInput, carried?: CarriedState): Promise<string> {
  const run = newTicketRun(input, carried);
  setChangeHandlers(run);

  if (!run.state && !(await createTicket(run))) return 'creation_failed';
  const state = run.state!;

  // until the ticket is closed or deleted: sleep until the next deadline or the next step
  while (!run.deleted && state.facts.status !== 'closed') {
    const seen = state.version;
    const due = nextDeadline(state.facts);
    const moved = () => state.version !== seen || run.deleted;
    const changed = due ? await condition(moved, Math.max(due.at - Date.now(), 1)) : (await condition(moved), true);
    if (!changed && due) await fire(run, due);
    if (workflowInfo().continueAsNewSuggested && !run.busy) {
      await condition(allHandlersFinished);
      // the next run never stores or triages: it starts without the ticket's text
      await continueAsNew<typeof ticketWorkflow>({ ...input, title: '', body: '', tags: [], metadata: {} }, state);
    }
  }
  await condition(allHandlersFinished);
  return run.deleted ? 'deleted' : 'closed';
}

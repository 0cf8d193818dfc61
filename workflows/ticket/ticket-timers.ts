// The ticket's deadlines (SLA first response and resolution, auto-close): the main
// loop sleeps until the earliest (domain/tickets/rules.ts nextDeadline) and fires it here.
import { nextDeadline, type Deadline } from '../../domain/tickets/rules';
import type { LifecycleChange } from './activities.contract';
import { apply } from './ticket-changes';
import type { TicketRun } from './ticket-run';

class DeadlineMoved extends Error {}

/**
 * A deadline fires only if, once the change lock is held, it is still due: a change
 * that was in flight when the timer fired (a reply, a resolve) may have moved it.
 * Recorded at the deadline itself (closedAt = resolvedAt + threshold, breachedAt = deadline).
 */
export async function fire(run: TicketRun, { kind, at }: Deadline): Promise<void> {
  const stillDue = () => {
    const d = nextDeadline(run.state!.facts);
    if (!d || d.kind !== kind || d.at > Date.now()) throw new DeadlineMoved();
  };
  const policy = kind === 'sla_first_response' ? 'first_response' : 'resolution';
  const change: LifecycleChange = kind === 'auto_close' ? { kind: 'auto_close' } : { kind: 'sla_breach', policy };
  try {
    await apply(run, change, null, stillDue, at);
    if (kind !== 'auto_close') run.state!.facts.breached[policy] = true;
  } catch (err) {
    if (!(err instanceof DeadlineMoved)) throw err;
  }
}

// The platform ticket workflow's SLA timers (docs/platform.md, "SLA breaches"): two
// policies per ticket (first response, resolution), each breaching at most once, as /v1's
// ticket workflow has them (workflows/ticket, `nextDeadline`). The deadlines are read by an
// activity (ids in, ISO times out) at the run's first wait and again after a priority
// change; the pure decisions are domain/platform/sla.rules.ts. A breach is recorded by an
// activity under the run's lock, once the policy is re-checked as still unmet.
//
// Runs begun before this code (and their recorded histories) have no SLA: every command
// here is behind `patched('platform-ticket-sla')`, so they replay unchanged and take the
// timers from their first wait after the deploy on.
// A `taken` answer (numbered-step.ts) means the row holds steps of a lost workflow task that
// the run never saw: one may have changed the priority or published a reply, so the
// deadlines are read again at the next wait, behind `patched('platform-ticket-sla-after-taken')`
// (histories/platform-ticket-lost-task.json met `taken` without it).
import { condition, patched } from '@temporalio/workflow';
import { nextSlaDeadline, slaBreachesAt, type PlatformSlaPolicyName, type PlatformTicketSla, type SlaDeadline, type SlaTicketFacts } from '../../domain/platform/sla.rules';
import type { Mutex } from '../mutex';
import type { PlatformTicketChange } from './contract';
import { storage } from './platform-ticket-activities';
import { isDeleted, type PlatformTicketState } from './platform-ticket-state';

export const SLA_PATCH = 'platform-ticket-sla';
export const SLA_AFTER_TAKEN_PATCH = 'platform-ticket-sla-after-taken';

export class SlaTimers {
  /** what the last read answered, with the run's own replies and breaches since; null until read */
  private sla: PlatformTicketSla | null;
  /** state.takenAnswers when the deadlines were last read */
  private readAfterTaken = 0;

  constructor(
    private readonly ticketId: string,
    private readonly state: PlatformTicketState,
    private readonly lock: Mutex,
    carried?: PlatformTicketSla | null,
  ) {
    this.sla = carried ?? null;
  }

  /** What continue-as-new carries (ISO times and flags). */
  get carried(): PlatformTicketSla | null {
    return this.sla;
  }

  /**
   * The deadline to sleep until while the ticket is open, pending or resolved, or null
   * (no patch, no policy pending, the row gone). Reads the deadlines the first time, under
   * the lock, so no step runs between the read and the state it describes.
   */
  async next(): Promise<SlaDeadline | null> {
    if (!patched(SLA_PATCH)) return null;
    if (!this.sla || this.takenSinceRead()) await this.lock.runExclusive(() => (this.state.gone ? Promise.resolve() : this.read()));
    // a step still in flight may move the deadlines after its version is stored (a priority
    // change re-reads them): sleep on what it leaves, not on what it found
    else await condition(() => !this.lock.locked);
    return this.sla && !this.state.gone ? nextSlaDeadline(this.facts(), this.dueMs()) : null;
  }

  /**
   * After a stored step, under the lock: a reply meets the first response; a priority change
   * recomputes the deadlines, from `read` when the step's activity read them in its own
   * transaction (domain/platform/step-follow-ups.ts), else by a read of its own.
   */
  async afterStep(change: PlatformTicketChange, read?: PlatformTicketSla | { gone: true }): Promise<void> {
    if (!this.sla || this.state.gone) return; // not watched (yet): the first read sees the row as it is then
    if (change.kind === 'reply') this.sla.firstResponded = true;
    if (change.kind === 'patch' && change.priority !== undefined && change.priority !== this.sla.priority) this.take(read ?? (await storage.readPlatformTicketSla(this.ticketId)));
  }

  /**
   * Rules fired after a change (automations.ts): one may have changed the priority, which
   * the workflow does not see (a rule's step names the rule, not its actions), so the
   * deadlines are read again. Call it under the lock, like afterStep.
   */
  async afterAutomations(): Promise<void> {
    if (!this.sla || this.state.gone) return;
    await this.read();
  }

  /** The timer of `due` fired: breaches if, once the lock is held, the policy is still unmet and due. */
  fire(due: SlaDeadline): Promise<void> {
    return this.lock.runExclusive(async () => {
      if (!this.sla || this.state.gone || !slaBreachesAt(this.facts(), this.dueMs(), due.policy, Date.now())) return;
      const result = await storage.breachPlatformTicketSla({ ticketId: this.ticketId, policy: due.policy, dueAt: this.sla.dueAt[due.policy] });
      if ('gone' in result) this.state.gone = true;
      // breached now, or found breached or met by the row: either way never again in this run
      else this.sla.breached[due.policy] = true;
    });
  }

  private async read(): Promise<void> {
    this.take(await storage.readPlatformTicketSla(this.ticketId));
  }

  private take(result: PlatformTicketSla | { gone: true }): void {
    this.readAfterTaken = this.state.takenAnswers;
    if ('gone' in result) this.state.gone = true;
    else this.sla = result;
  }

  /** The run has met steps of a lost task since the last read (its deadlines may be stale). */
  private takenSinceRead(): boolean {
    return this.state.takenAnswers !== this.readAfterTaken && patched(SLA_AFTER_TAKEN_PATCH);
  }

  private facts(): SlaTicketFacts {
    return { status: this.state.status, deleted: isDeleted(this.state), firstResponded: this.sla!.firstResponded, breached: this.sla!.breached };
  }

  private dueMs(): Record<PlatformSlaPolicyName, number> {
    return { first_response: Date.parse(this.sla!.dueAt.first_response), resolution: Date.parse(this.sla!.dueAt.resolution) };
  }
}

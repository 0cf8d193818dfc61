// Types of the ticket activities, shared by the workflow (types only) and the
// activity implementation in activities/tickets.
import type { WorkspaceSettings } from '../../lib/workspace-settings';
import type {
  Actor,
  AssignChange,
  CreateTicketInput,
  MessageChange,
  PatchChange,
  ResolveChange,
  TicketFacts,
} from './contract';

export type LifecycleChange =
  | ({ kind: 'patch' } & PatchChange)
  | ({ kind: 'assign' } & AssignChange)
  | ({ kind: 'resolve' } & ResolveChange)
  | ({ kind: 'message' } & MessageChange)
  | { kind: 'delete' }
  | { kind: 'auto_close' }
  | { kind: 'sla_breach'; policy: 'first_response' | 'resolution' };

export interface ApplyChangeRequest {
  ticketId: string;
  /** the lifecycle step number; a step already applied is not applied twice */
  version: number;
  /** workflow time of the change, ISO */
  at: string;
  change: LifecycleChange;
  actor: Actor | null;
}

/** A stored step: its number and the ticket's facts after it (small: results go into the history). */
export interface AppliedChange {
  version: number;
  facts: TicketFacts;
}

export interface TicketActivities {
  /** Stores the ticket (version 1); answers the workspace settings its timers start from. */
  insertTicket(input: CreateTicketInput): Promise<{ version: number; settings: WorkspaceSettings }>;
  /** Reads title, body and category from the row: the history carries the body only in the start input. */
  triageTicket(input: { ticketId: string }): Promise<void>;
  /** null when the step deleted the ticket (or it was already gone) */
  applyTicketChange(req: ApplyChangeRequest): Promise<AppliedChange | null>;
  sendResolutionNotification(input: { ticketId: string; version: number }): Promise<boolean>;
  loadWorkspaceSettings(input: { workspaceId: string }): Promise<WorkspaceSettings>;
}

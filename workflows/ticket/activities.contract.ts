// Types of the ticket activities, shared by the workflow (types only) and the
// activity implementation in activities/tickets.
import type { WorkspaceSettings } from '../../domain/workspaces/types';
import type { AppliedChange, ApplyChangeRequest, CreateTicketInput } from '../../domain/tickets/types';

export type { AppliedChange, ApplyChangeRequest, LifecycleChange } from '../../domain/tickets/types';

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

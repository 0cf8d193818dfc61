// Types of the ticket activities, shared by the workflow (types only) and the
// activity implementation in activities/tickets.
import type { WorkspaceSettings } from '../../lib/workspace-settings';
import type {
  Actor,
  AssignChange,
  ChangeResult,
  CreateTicketInput,
  MessageChange,
  PatchChange,
  ResolveChange,
  TicketRecord,
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

export interface TicketActivities {
  insertTicket(input: CreateTicketInput): Promise<{ ticket: TicketRecord; settings: WorkspaceSettings }>;
  triageTicket(input: { ticketId: string; title: string; body: string; category: string | null }): Promise<void>;
  applyTicketChange(req: ApplyChangeRequest): Promise<ChangeResult | null>;
  sendResolutionNotification(input: { ticketId: string; version: number }): Promise<boolean>;
  loadWorkspaceSettings(input: { workspaceId: string }): Promise<WorkspaceSettings>;
}

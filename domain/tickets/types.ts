// The ticket's record types: what is stored, what a create carries and the changes a
// ticket takes. Shared by the domain commands, the repositories, the ticket workflow
// (through its contract) and the API. Types only.
import type { Priority } from '../workspaces/types';

export type TicketStatus = 'open' | 'in_progress' | 'resolved' | 'closed';

export type Source = 'api' | 'sdk' | 'discord' | 'steam' | 'email';

export interface CreateTicketInput {
  ticketId: string;
  workspaceId: string;
  organizationId: string;
  /** internal player id (kpl_) */
  playerRef: string;
  /** the caller's own player id */
  playerId: string;
  title: string;
  body: string;
  category: string | null;
  priority: Priority;
  source: Source;
  tags: string[];
  metadata: Record<string, unknown>;
  /** ISO time the API accepted the request */
  createdAt: string;
  /** upsert the WorkspaceId/TicketStatus/TicketPriority search attributes (off on servers without them) */
  searchAttributes?: boolean;
  /**
   * The API stored the row at creation (the create outbox, Nov 2026): the workflow only
   * loads the workspace's settings and triages. Absent in histories of earlier tickets,
   * whose workflow inserted the row itself.
   */
  stored?: boolean;
}

/** A ticket as stored: every field of the spec's ticket plus the agent-only notes. */
export interface TicketRecord {
  id: string;
  workspaceId: string;
  playerId: string;
  playerRef: string | null;
  title: string;
  body: string;
  status: TicketStatus;
  priority: Priority;
  category: string | null;
  source: Source;
  tags: string[];
  metadata: Record<string, unknown>;
  assigneeId: string | null;
  aiTriaged: boolean;
  aiSuggestedCategory: string | null;
  aiConfidence: number | null;
  aiSuggestedReply: string | null;
  internalNote: string | null;
  resolutionNote: string | null;
  messageCount: number;
  createdAt: string;
  updatedAt: string;
  resolvedAt: string | null;
  closedAt: string | null;
  firstResponseAt: string | null;
}

export interface MessageRecord {
  id: string;
  ticketId: string;
  authorId: string;
  authorType: 'player' | 'agent';
  body: string;
  createdAt: string;
}

/** Who asked for a change: the API key that made the request. */
export type Actor = { keyId: string };

export interface PatchChange {
  status?: TicketStatus;
  priority?: Priority;
  assigneeId?: string | null;
  category?: string;
  tags?: string[];
  internalNote?: string;
}
export interface AssignChange {
  agentId: string;
  note?: string;
}
export interface ResolveChange {
  resolutionNote?: string;
  sendNotification: boolean;
}
export interface MessageChange {
  messageId: string;
  authorType: 'player' | 'agent';
  authorId: string;
  body: string;
}

/** Every step of a ticket's lifecycle: a caller's change, or one its timers make. */
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
  /**
   * The change this step is, unique per ticket: `update:<Update id>`, or a key the
   * workflow derives from its own state for a step it makes itself (a deadline). With a
   * key, a step number already stored is a retry only if the log has the same key for
   * it (docs/tickets.md, "Step keys"). Absent in the recorded requests of runs started
   * before the step log: those keep the number-only rule.
   */
  key?: string;
}

/**
 * What the workflow keeps of a stored ticket after a step: the fields its timers and
 * search attributes depend on. Never the title, body or notes: every activity result
 * is written into the history, and a body may be 100 k characters.
 */
export interface TicketFacts {
  status: TicketStatus;
  priority: Priority;
  assigneeId: string | null;
  resolvedAt: string | null;
  firstResponseAt: string | null;
}

/** A stored step: its number and the ticket's facts after it (small: results go into the history). */
export interface AppliedChange {
  version: number;
  facts: TicketFacts;
  /**
   * The requested number belongs to another change (a keyed request only): nothing was
   * applied; `version` and `facts` are the row's now, and the workflow re-checks the
   * change against them and asks again with the next number.
   */
  taken?: true;
  /**
   * With `taken`: the keys of the steps stored from the requested number on, which the
   * workflow did not know of. Their changes will ask again and be answered as stored, so
   * the workflow must not refuse them by the state they themselves produced.
   */
  keys?: string[];
  /** The change (by its key) was stored before, as this step; `version` and `facts` are the row's now. */
  storedAs?: number;
}

/** What triage reads of a new ticket. */
export interface TriageInput {
  title: string;
  body: string;
  /** Category the player (or the form) picked, if any. Only used to steer the reply when the model is unsure. */
  category?: string | null;
  playerName?: string | null;
}

/** What triage suggests; stored as the ticket's four read-only ai* fields (db/repositories/tickets.ts recordTriage). */
export interface TriageResult {
  /** One of TRIAGE_CATEGORIES (activities/triage/categories.ts). */
  category: string;
  /** 0..1 */
  confidence: number;
  suggestedReply: string;
  /** "local-bayes-v1", "openai:<model>" or "local-bayes-v1(fallback)". */
  model: string;
}

/** The triage component (activities/triage/triager.ts createTriager); never throws because of an LLM. */
export interface Triager {
  triage(input: TriageInput): Promise<TriageResult>;
}

/** An agent (a person tickets are assigned to): the fields a response shows. */
export interface AgentRecord {
  id: string;
  workspaceId: string;
  name: string;
  email: string | null;
  avatarUrl: string | null;
  createdAt: Date;
}

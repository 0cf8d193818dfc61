// What callers know about a platform ticket's workflow (docs/platform.md, "Tickets"): one
// workflow per ticket (`platform-ticket/<id>`), the single writer of its row after the
// create, started from the workflow-start outbox. Inputs, results and replies carry ids
// and versions, never the ticket's text (a reply's text is a draft row the API wrote:
// the Update names it by id).
// (Foundation: the id, queue and the Update a user's deactivation sends are fixed here so
// the user-deactivation workflow and the ticket workflow agree; the ticket workflow's own
// updates are added beside them.)
import { defineQuery, defineUpdate } from '@temporalio/workflow';
import type { PlatformTicketPriority, PlatformTicketStatus } from '../../domain/platform/types';
import type { PlatformTicketStep, PlatformTicketStepResult } from '../../domain/platform/ticket-step';
import type { AssessPlatformRiskInput, AssessPlatformRiskResult } from '../../domain/platform/risk-signal';
import type { WorkflowStartEntry } from '../start-entry';
import type { AutomationMatchQuery } from '../../domain/platform/automation.rules';
import type { PlatformSlaBreachRequest, PlatformTicketSla } from '../../domain/platform/sla.rules';

export type { PlatformTicketChange, PlatformTicketFacts, PlatformTicketFollowUps, PlatformTicketStep, PlatformTicketStepResult } from '../../domain/platform/ticket-step';

import { PLATFORM_QUEUE } from '../platform-token/contract';

export { PLATFORM_QUEUE };
export const PLATFORM_TICKET_WORKFLOW_TYPE = 'platformTicketWorkflow';
export const platformTicketWorkflowId = (ticketId: string) => `platform-ticket/${ticketId}`;

/** The reply of every change: the step it was stored as and the status after it. */
export interface PlatformTicketChangeReply {
  ticketId: string;
  /** platform_tickets.version after the change */
  version: number;
  status: 'open' | 'pending' | 'resolved' | 'closed';
  /** false when the change had nothing to do (e.g. unassign of a ticket no longer theirs) */
  changed: boolean;
}

/**
 * Sent by a user's deactivation (workflows/platform-user): unassigns the ticket if it is
 * still assigned to `userId` and open (not resolved or closed); otherwise changes nothing.
 * Idempotent, so a resumed deactivation may send it again.
 */
export const unassignUserUpdate = defineUpdate<PlatformTicketChangeReply, [{ userId: string }]>('unassignUser');

/** The start input: ids only (the row holds the text). */
export interface PlatformTicketInput {
  ticketId: string;
  workspaceId: string;
  /** the assignee the ticket was created with */
  assigneeId: string | null;
  /**
   * Risk assessments run as local activities inside the workflow task (risk.ts): the API sets
   * it when no LLM endpoint is configured (api/platform/tickets/gateway.ts inputOf). Absent
   * in runs started before it.
   */
  riskInTask?: boolean;
}

/**
 * What a run starts from when it is not the first: continue-as-new, or a closed ticket's
 * deletion (its earlier run ended at close; DELETE starts a new run under the same id with
 * the stored row's facts).
 */
export interface PlatformTicketCarried {
  status: PlatformTicketStatus;
  version: number;
  assigneeId: string | null;
  /** ISO: the soft delete's end, null when not deleted */
  purgeAt: string | null;
  /** the SLA deadlines and what is met or breached (sla-timers.ts); absent: read at the run's start */
  sla?: PlatformTicketSla | null;
}

export interface PatchTicketChange {
  status?: PlatformTicketStatus;
  priority?: PlatformTicketPriority;
  /** null unassigns */
  assigneeId?: string | null;
  tags?: string[];
}

export const patchTicketUpdate = defineUpdate<PlatformTicketChangeReply, [PatchTicketChange]>('patch');
/** Publishes the API's draft reply `replyId` (its text never enters the history). */
export const replyTicketUpdate = defineUpdate<PlatformTicketChangeReply, [{ replyId: string }]>('reply');
/** Soft delete: hidden at once, purged by the run's timer 30 days later. */
export const deleteTicketUpdate = defineUpdate<PlatformTicketChangeReply, []>('delete');
/** Cancels a soft delete within its 30 days (410 gone after them). */
export const restoreTicketUpdate = defineUpdate<PlatformTicketChangeReply, []>('restore');

export interface PlatformTicketWorkflowState {
  status: PlatformTicketStatus;
  version: number;
  assigneeId: string | null;
  deleted: boolean;
  purgeAt: string | null;
}
export const platformTicketStateQuery = defineQuery<PlatformTicketWorkflowState>('state');

export interface PlatformTicketActivities {
  /** Stores one numbered step (idempotent by its version); `{ gone: true }` when the row has vanished. */
  applyPlatformTicketStep(step: PlatformTicketStep): Promise<PlatformTicketStepResult>;
  /** Removes a soft-deleted ticket for good (its replies cascade). */
  purgePlatformTicket(ticketId: string): Promise<'purged' | 'restored'>;
  /** The ids of the active automations of `trigger` that would fire on the ticket as stored now, in their order (workflows/platform-ticket/automations.ts). */
  matchPlatformAutomations(q: AutomationMatchQuery): Promise<string[]>;
  /** The ticket's SLA deadlines (ISO) under its workspace's active policies, and what is met or breached (sla-timers.ts). */
  readPlatformTicketSla(ticketId: string): Promise<PlatformTicketSla | { gone: true }>;
  /** Records a breach once per policy (the column and `ticket.sla_breached`); `breached: false` when it no longer applies. */
  breachPlatformTicketSla(req: PlatformSlaBreachRequest): Promise<{ breached: boolean } | { gone: true }>;
}

/** A new ticket's entry in the workflow-start outbox. */
export function platformTicketWorkflowStart(input: PlatformTicketInput): WorkflowStartEntry<PlatformTicketInput> {
  return {
    workflowId: platformTicketWorkflowId(input.ticketId),
    workflowType: PLATFORM_TICKET_WORKFLOW_TYPE,
    taskQueue: PLATFORM_QUEUE,
    args: [input],
  };
}

/**
 * Risk signals (docs/platform.md, "Risk signals"; workflows/platform-ticket/risk.ts): assesses
 * the created ticket's text, or a published reply's, read from the row, and records
 * risk_signal.triggered once per ticket and per reply. Answers ids and the signal only.
 */
export interface PlatformRiskActivities {
  assessPlatformRisk(input: AssessPlatformRiskInput): Promise<AssessPlatformRiskResult>;
}
export type { AssessPlatformRiskInput, AssessPlatformRiskResult } from '../../domain/platform/risk-signal';

// Platform automations as pure rules (docs/platform.md, "Automations"): what a rule is,
// which rule is well formed (the API's 400s, by field path), whether a ticket matches a
// rule's conditions, and which of its actions would change the ticket. No I/O: the API,
// the matching activity and the ticket step apply the same functions.
import { reachesWorkspace, type PlatformCaller } from './access.rules';
import { platformInvalidField } from './errors';
import { canMove } from './ticket.rules';
import { PLATFORM_TICKET_PRIORITIES, PLATFORM_TICKET_STATUSES, type PlatformEnvironment, type PlatformTicketPriority, type PlatformTicketStatus } from './types';

export const AUTOMATION_TRIGGERS = ['ticket.created', 'ticket.updated'] as const;
export type AutomationTrigger = (typeof AUTOMATION_TRIGGERS)[number];

export const AUTOMATION_FIELDS = ['status', 'priority', 'channel_id', 'assignee_id', 'tags', 'subject', 'body', 'contact_email'] as const;
export type AutomationField = (typeof AUTOMATION_FIELDS)[number];

export const AUTOMATION_OPERATORS = ['equals', 'not_equals', 'in', 'contains', 'not_contains'] as const;
export type AutomationOperator = (typeof AUTOMATION_OPERATORS)[number];

export interface AutomationCondition {
  field: AutomationField;
  operator: AutomationOperator;
  /** a string, null (assignee_id: unassigned) or, for `in`, a list */
  value: string | null | Array<string | null>;
}

export type AutomationAction =
  | { type: 'set_priority'; value: PlatformTicketPriority }
  | { type: 'assign'; user_id: string | null }
  | { type: 'add_tag'; value: string }
  | { type: 'set_status'; value: PlatformTicketStatus };

export interface PlatformAutomationRecord {
  id: string;
  organizationId: string;
  workspaceId: string;
  environment: PlatformEnvironment;
  name: string;
  trigger: AutomationTrigger;
  conditions: AutomationCondition[];
  actions: AutomationAction[];
  active: boolean;
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The `data` of an `automation.fired` event. */
export interface AutomationFiredData {
  automation_id: string;
  ticket_id: string;
  trigger: AutomationTrigger;
  /** the actions applied, in the rule's order (the skipped ones are not listed) */
  actions: AutomationAction[];
}

export interface AutomationMatchQuery {
  ticketId: string;
  trigger: AutomationTrigger;
  /** rules that fired already for the change being followed: never twice */
  exclude: string[];
}

export const MAX_AUTOMATION_CONDITIONS = 20;
export const MAX_AUTOMATION_ACTIONS = 10;
export const MAX_IN_VALUES = 50;
export const MAX_CONDITION_TEXT = 500;
/** Active or not, per workspace and environment: bounds the steps one change can cause. */
export const MAX_AUTOMATIONS_PER_WORKSPACE = 100;
/** A ticket's tag limit (api/platform/tickets/schema.ts MAX_TAGS): add_tag is skipped at it. */
export const MAX_TICKET_TAGS = 20;

/** Which operators each field takes, and what its value is. */
const OPERATORS_OF: Record<AutomationField, readonly AutomationOperator[]> = {
  status: ['equals', 'not_equals', 'in'],
  priority: ['equals', 'not_equals', 'in'],
  channel_id: ['equals', 'not_equals', 'in'],
  assignee_id: ['equals', 'not_equals', 'in'],
  tags: ['contains', 'not_contains', 'in'],
  subject: ['equals', 'not_equals', 'contains', 'not_contains'],
  body: ['equals', 'not_equals', 'contains', 'not_contains'],
  contact_email: ['equals', 'not_equals', 'in', 'contains', 'not_contains'],
};
export const operatorsOf = (field: AutomationField): readonly AutomationOperator[] => OPERATORS_OF[field];

/** Field errors by path (`conditions.0.value`), as the API's validation_failed details. */
export type RuleErrors = Record<string, string[]>;

/**
 * The shape errors of a rule's conditions and actions beyond their JSON schema: the field
 * and operator matrix, the values' kinds, duplicate single-valued actions. References
 * (a channel of the workspace, an active user) are the command's to check.
 */
export function automationRuleErrors(rule: { conditions?: AutomationCondition[]; actions?: AutomationAction[] }): RuleErrors {
  const errors: RuleErrors = {};
  const add = (path: string, message: string) => (errors[path] ??= []).push(message);
  (rule.conditions ?? []).forEach((c, i) => {
    const at = `conditions.${i}`;
    if (!OPERATORS_OF[c.field].includes(c.operator)) {
      add(`${at}.operator`, `'${c.field}' takes ${OPERATORS_OF[c.field].join(', ')}`);
      return;
    }
    const problem = valueProblem(c);
    if (problem) add(`${at}.value`, problem);
  });
  const seen = new Set<string>();
  (rule.actions ?? []).forEach((a, i) => {
    if (a.type !== 'add_tag' && seen.has(a.type)) add(`actions.${i}.type`, `at most one '${a.type}' action per rule`);
    seen.add(a.type);
  });
  return errors;
}

/** Refuses the first shape error of a rule (400 validation_failed naming its field). */
export function checkAutomationRule(rule: { conditions?: AutomationCondition[]; actions?: AutomationAction[] }): void {
  const first = Object.entries(automationRuleErrors(rule))[0];
  if (first) throw platformInvalidField(first[0], first[1][0]);
}

/** Whether a caller sees a rule: of a workspace it reaches, in its token's environment. */
export const reachesAutomation = (caller: PlatformCaller & { environment: PlatformEnvironment }, a: Pick<PlatformAutomationRecord, 'organizationId' | 'workspaceId' | 'environment'>): boolean =>
  a.environment === caller.environment && reachesWorkspace(caller, { id: a.workspaceId, organizationId: a.organizationId });

function valueProblem(c: AutomationCondition): string | null {
  const one = (v: string | null): string | null => {
    if (v === null) return c.field === 'assignee_id' ? null : 'must not be null (only assignee_id takes null: unassigned)';
    if (c.field === 'status' && !PLATFORM_TICKET_STATUSES.includes(v as PlatformTicketStatus)) return `must be one of ${PLATFORM_TICKET_STATUSES.join(', ')}`;
    if (c.field === 'priority' && !PLATFORM_TICKET_PRIORITIES.includes(v as PlatformTicketPriority)) return `must be one of ${PLATFORM_TICKET_PRIORITIES.join(', ')}`;
    if (v.trim() === '') return 'must not be blank';
    if (v.length > MAX_CONDITION_TEXT) return `must be at most ${MAX_CONDITION_TEXT} characters`;
    return null;
  };
  if (c.operator === 'in') {
    if (!Array.isArray(c.value)) return "must be a list for 'in'";
    if (c.value.length < 1 || c.value.length > MAX_IN_VALUES) return `must list 1 to ${MAX_IN_VALUES} values`;
    for (const v of c.value) {
      const p = one(v);
      if (p) return `each value ${p}`;
    }
    return null;
  }
  if (Array.isArray(c.value)) return `must be a single value for '${c.operator}' (a list only for 'in')`;
  return one(c.value);
}

/** What the conditions read of a ticket (the stored row). */
export interface MatchableTicket {
  status: PlatformTicketStatus;
  priority: PlatformTicketPriority;
  channelId: string;
  assigneeId: string | null;
  tags: string[];
  subject: string;
  body: string;
  contactEmail: string;
}

const fieldValue = (t: MatchableTicket, f: AutomationField): string | null | string[] =>
  ({ status: t.status, priority: t.priority, channel_id: t.channelId, assignee_id: t.assigneeId, tags: t.tags, subject: t.subject, body: t.body, contact_email: t.contactEmail })[f];

/** Text fields compare without regard to letter case; ids, statuses, priorities and tags exactly. */
const TEXT_FIELDS: ReadonlySet<AutomationField> = new Set(['subject', 'body', 'contact_email']);

/** Whether one condition holds for the ticket. */
export function conditionHolds(t: MatchableTicket, c: AutomationCondition): boolean {
  const actual = fieldValue(t, c.field);
  const norm = (v: string | null) => (v !== null && TEXT_FIELDS.has(c.field) ? v.toLowerCase() : v);
  if (c.field === 'tags') {
    const tags = actual as string[];
    if (c.operator === 'contains') return tags.includes(c.value as string);
    if (c.operator === 'not_contains') return !tags.includes(c.value as string);
    return (c.value as string[]).some((v) => tags.includes(v)); // in: carries any of them
  }
  const a = norm(actual as string | null);
  switch (c.operator) {
    case 'equals':
      return a === norm(c.value as string | null);
    case 'not_equals':
      return a !== norm(c.value as string | null);
    case 'in':
      return (c.value as Array<string | null>).some((v) => norm(v) === a);
    case 'contains':
      return a !== null && a.includes(norm(c.value as string)!);
    case 'not_contains':
      return a === null || !a.includes(norm(c.value as string)!);
  }
}

/** All conditions hold (an empty list always matches). */
export const conditionsHold = (t: MatchableTicket, conditions: AutomationCondition[]): boolean => conditions.every((c) => conditionHolds(t, c));

/** The ticket's change that the applicable actions make, as a PATCH would make it. */
export interface AutomationChange {
  status?: PlatformTicketStatus;
  priority?: PlatformTicketPriority;
  assigneeId?: string | null;
  tags?: string[];
}

/**
 * The actions that would change the ticket now, applied in order on a copy, and the change
 * they make together. Skipped: a status the transition table refuses (or the same one), the
 * priority it has, an assignee who is not an active worker of the workspace any more
 * (`isActiveWorker`) or the one it has, a tag it carries or a ticket at its tag limit.
 * Nothing applies to a closed ticket (closed is terminal).
 */
export function applicableActions(
  t: Pick<MatchableTicket, 'status' | 'priority' | 'assigneeId' | 'tags'>,
  actions: AutomationAction[],
  isActiveWorker: (userId: string) => boolean,
): { applied: AutomationAction[]; change: AutomationChange } {
  const applied: AutomationAction[] = [];
  const change: AutomationChange = {};
  if (t.status === 'closed') return { applied, change };
  const now: { status: PlatformTicketStatus; priority: PlatformTicketPriority; assigneeId: string | null; tags: string[] } = { status: t.status, priority: t.priority, assigneeId: t.assigneeId, tags: [...t.tags] };
  for (const a of actions) {
    switch (a.type) {
      case 'set_priority':
        if (a.value === now.priority) continue;
        now.priority = change.priority = a.value;
        break;
      case 'assign':
        if (a.user_id === now.assigneeId || (a.user_id !== null && !isActiveWorker(a.user_id))) continue;
        now.assigneeId = change.assigneeId = a.user_id;
        break;
      case 'add_tag':
        if (now.tags.includes(a.value) || now.tags.length >= MAX_TICKET_TAGS) continue;
        now.tags.push(a.value);
        change.tags = [...now.tags];
        break;
      case 'set_status':
        if (a.value === now.status || !canMove(now.status, a.value)) continue;
        now.status = change.status = a.value;
        break;
    }
    applied.push(a);
  }
  return { applied, change };
}

/** The user ids a rule's assign actions name (the callers look up which are active workers). */
export const assigneesOf = (actions: AutomationAction[]): string[] =>
  actions.flatMap((a) => (a.type === 'assign' && a.user_id !== null ? [a.user_id] : []));

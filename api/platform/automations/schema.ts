// Platform automations (the platform spec, "What the service does"; docs/platform.md,
// "Automations"): the request and response schemas, and their OpenAPI paths. The JSON
// shapes are checked here; which operator each field takes and what its value is are
// domain/platform/automation.rules.ts's (checkAutomationRule), the same 400.
import { z } from '../../zod';
import { json, jsonBody } from '../../kit/openapi';
import { prefixedIdParam, text } from '../../kit/fields';
import {
  AUTOMATION_FIELDS,
  AUTOMATION_OPERATORS,
  AUTOMATION_TRIGGERS,
  MAX_AUTOMATION_ACTIONS,
  MAX_AUTOMATION_CONDITIONS,
  MAX_CONDITION_TEXT,
  MAX_IN_VALUES,
} from '../../../domain/platform/automation.rules';
import { PLATFORM_TICKET_PRIORITIES, PLATFORM_TICKET_STATUSES } from '../../../domain/platform/types';
import { errorResponses, registry, security } from '../openapi';
import { PlatformListSchema, PlatformPageQuery } from '../paging';

const Trigger = z.enum(AUTOMATION_TRIGGERS as unknown as ['ticket.created', 'ticket.updated']).openapi({ description: 'When the rule runs: after a ticket is created, or after a change recorded `ticket.updated`' });
const Status = z.enum(PLATFORM_TICKET_STATUSES as ['open', 'pending', 'resolved', 'closed']);
const Priority = z.enum(PLATFORM_TICKET_PRIORITIES as ['critical', 'high', 'normal', 'low']);
const id = z.string().min(1).max(64);
const conditionText = z.string().max(MAX_CONDITION_TEXT, `must be at most ${MAX_CONDITION_TEXT} characters`);

export const Condition = z
  .object({
    field: z.enum(AUTOMATION_FIELDS as unknown as [string, ...string[]]),
    operator: z.enum(AUTOMATION_OPERATORS as unknown as [string, ...string[]]),
    value: z
      // null inside the string branch: OpenAPI 3.0 has no null type of its own
      .union([conditionText.nullable(), z.array(conditionText.nullable()).max(MAX_IN_VALUES, `at most ${MAX_IN_VALUES} values`)])
      .openapi({
        description:
          'status, priority, channel_id, assignee_id: equals, not_equals (one value), in (a list); assignee_id takes null (unassigned). ' +
          'tags: contains, not_contains (one tag), in (carries any of a list). subject, body: equals, not_equals, contains, not_contains ' +
          '(letter case ignored). contact_email: those and in. Statuses and priorities are the ticket\'s; channels the workspace\'s; users the organisation\'s.',
      }),
  })
  .strict()
  .openapi('PlatformAutomationCondition');

const action = <T extends z.ZodRawShape>(shape: T) => z.object(shape).strict();
export const Action = z
  .discriminatedUnion('type', [
    action({ type: z.literal('set_priority'), value: Priority }),
    action({ type: z.literal('assign'), user_id: id.nullable().openapi({ description: 'An active user who works in the workspace; null unassigns' }) }),
    action({ type: z.literal('add_tag'), value: z.string().trim().min(1, 'must not be blank').max(64, 'must be at most 64 characters') }),
    action({ type: z.literal('set_status'), value: Status.openapi({ description: 'Skipped when the transition table refuses it' }) }),
  ])
  .openapi('PlatformAutomationAction');

const conditions = z
  .array(Condition)
  .max(MAX_AUTOMATION_CONDITIONS, `at most ${MAX_AUTOMATION_CONDITIONS} conditions`)
  .openapi({ description: `All must hold; an empty list always matches (at most ${MAX_AUTOMATION_CONDITIONS})` });
const actions = z
  .array(Action)
  .min(1, 'at least one action')
  .max(MAX_AUTOMATION_ACTIONS, `at most ${MAX_AUTOMATION_ACTIONS} actions`)
  .openapi({ description: `Applied in order as one change; 1 to ${MAX_AUTOMATION_ACTIONS}, at most one of each type but add_tag` });

export const CreateAutomationRequest = z
  .object({
    name: text(200, { required: true }).openapi({ example: 'Escalate outages' }),
    workspace_id: id.optional().openapi({ description: "The workspace whose tickets it acts on (default: the token's); one the caller reaches" }),
    trigger: Trigger,
    conditions: conditions.default([]),
    actions,
    active: z.boolean().default(true),
  })
  .strict()
  .openapi('PlatformCreateAutomationRequest');

export const PatchAutomationRequest = z
  .object({
    name: text(200, { required: true }).optional(),
    trigger: Trigger.optional(),
    conditions: conditions.optional().openapi({ description: 'Replaces the conditions' }),
    actions: actions.optional().openapi({ description: 'Replaces the actions' }),
    active: z.boolean().optional(),
  })
  .strict()
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: 'at least one of name, trigger, conditions, actions, active is required' })
  .openapi('PlatformPatchAutomationRequest');

export const ListAutomationsQuery = PlatformPageQuery.extend({
  workspace_id: z.string().max(64).optional().openapi({ description: "Only this workspace's rules (one out of the caller's reach: an empty page)" }),
  trigger: Trigger.optional(),
  active: z.enum(['true', 'false']).optional(),
});
export type ListAutomationsQuery = z.infer<typeof ListAutomationsQuery>;

export const Automation = z
  .object({
    id: z.string().openapi({ example: 'aut_01jd3k8xq7m2c4v9b0n6t5r8ya' }),
    workspace_id: z.string(),
    environment: z.enum(['live', 'test']).openapi({ description: "The token's environment when it was made: it acts on that environment's tickets only" }),
    name: z.string(),
    trigger: Trigger,
    conditions: z.array(Condition),
    actions: z.array(Action),
    active: z.boolean(),
    created_by: z.string().nullable(),
    created_at: z.string().datetime(),
    updated_at: z.string().datetime(),
  })
  .openapi('PlatformAutomation');
export type Automation = z.infer<typeof Automation>;

const automationIdParam = z.object({ id: prefixedIdParam('aut') });

registry.registerPath({
  method: 'post',
  path: '/platform/v1/automations',
  summary: 'Add an automation rule to a workspace, for the tickets of the token\'s environment (managers and admins)',
  security,
  request: jsonBody(CreateAutomationRequest),
  responses: { 201: json(Automation, 'the rule'), ...errorResponses(400, 404, 409) },
});

registry.registerPath({
  method: 'get',
  path: '/platform/v1/automations',
  summary: "The rules of the workspaces the token reaches, in the token's environment, in the order they run (oldest first)",
  security,
  request: { query: ListAutomationsQuery },
  responses: { 200: json(PlatformListSchema(Automation), 'a page of rules'), ...errorResponses(400) },
});

registry.registerPath({
  method: 'get',
  path: '/platform/v1/automations/{id}',
  summary: 'An automation rule',
  security,
  request: { params: automationIdParam },
  responses: { 200: json(Automation, 'the rule'), ...errorResponses(404) },
});

registry.registerPath({
  method: 'patch',
  path: '/platform/v1/automations/{id}',
  summary: 'Change a rule: name, trigger, conditions or actions (each replaced whole), active (managers and admins)',
  security,
  request: { params: automationIdParam, ...jsonBody(PatchAutomationRequest) },
  responses: { 200: json(Automation, 'the rule after the change'), ...errorResponses(400, 404, 409) },
});

registry.registerPath({
  method: 'delete',
  path: '/platform/v1/automations/{id}',
  summary: 'Remove a rule for good (managers and admins)',
  security,
  request: { params: automationIdParam },
  responses: { 204: { description: 'removed' }, ...errorResponses(404) },
});

// Event triggers (the push spec, "Event triggers"; docs/push.md): create, list per app, get,
// change (PATCH, e.g. `{enabled: false}`), delete, and fire (API key only). The condition
// rules are domain/push/trigger.rules.ts's; the OpenAPI paths are at the end.
import { z } from '../../zod';
import { json, jsonBody } from '../../kit/openapi';
import { text as textField, uuidField as uuid, uuidParam } from '../../kit/fields';
import { API_KEY_ONLY, errorResponses, registry, USER_OR_API_KEY } from '../openapi';
import {
  conditionProblem,
  MAX_BODY,
  MAX_DELAY_MINUTES,
  MAX_PROPERTY_NAME,
  MAX_TITLE,
  MAX_TRIGGER_CONDITIONS,
  TRIGGER_OPERATORS,
} from '../../../domain/push/trigger.rules';

const text = (max: number) => textField(max, { notBlank: true });

/** Fired properties: a JSON object of at most this size (its values render into pushes). */
export const MAX_PROPERTIES_BYTES = 8192;
export const MAX_EVENT_NAME = 100;

const Condition = z
  .object({
    field: z.string().openapi({ description: `properties.<name> (a top-level key of the fired properties, 1 to ${MAX_PROPERTY_NAME} characters)`, example: 'properties.amount' }),
    operator: z.enum(TRIGGER_OPERATORS),
    value: z
      .union([z.string(), z.number(), z.boolean(), z.null()])
      .optional()
      .openapi({
        description:
          'equals/not_equals: a string, number, boolean or null (same type to match); greater_than/less_than: a number; ' +
          'contains: a string (substring of a string property) or a value (element of an array property); exists: true or false (default true)',
        example: 50,
      }),
  })
  .strict()
  .superRefine((c, ctx) => {
    const problem = conditionProblem(c);
    if (problem) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [problem.path], message: problem.message });
  })
  .openapi('EventTriggerCondition');

const Conditions = z.array(Condition).max(MAX_TRIGGER_CONDITIONS, `at most ${MAX_TRIGGER_CONDITIONS} conditions`);

const DelayMinutes = z
  .number()
  .int('must be a whole number of minutes')
  .min(0)
  .max(MAX_DELAY_MINUTES, `at most ${MAX_DELAY_MINUTES} (7 days)`)
  .openapi({ description: 'Minutes from the fire to the push, 0 to 10,080 (0: at once)', example: 30 });

const fields = {
  name: text(200).openapi({ example: 'Big purchase thanks' }),
  eventName: text(MAX_EVENT_NAME).openapi({ example: 'purchase_completed' }),
  delayMinutes: DelayMinutes,
  conditions: Conditions,
  title: text(MAX_TITLE).openapi({ description: 'May hold {{properties.<name>}} placeholders', example: 'Thanks for your order!' }),
  body: text(MAX_BODY).openapi({ description: 'May hold {{properties.<name>}} placeholders', example: 'Your {{properties.item}} ships soon.' }),
  enabled: z.boolean().openapi({ description: 'Disabled triggers match no fire, and their waiting firings send nothing' }),
};

export const CreateEventTriggerBody = z
  .object({ appId: uuid(), ...fields, conditions: fields.conditions.default([]), enabled: fields.enabled.default(true) })
  .strict()
  .openapi('CreateEventTriggerRequest');
export type CreateEventTriggerBody = z.infer<typeof CreateEventTriggerBody>;

export const UpdateEventTriggerBody = z
  .object({
    name: fields.name.optional(),
    eventName: fields.eventName.optional(),
    delayMinutes: fields.delayMinutes.optional(),
    conditions: fields.conditions.optional(),
    title: fields.title.optional(),
    body: fields.body.optional(),
    enabled: fields.enabled.optional(),
  })
  .strict()
  .refine((b) => Object.values(b).some((v) => v !== undefined), 'give at least one field to change')
  .openapi('UpdateEventTriggerRequest');
export type UpdateEventTriggerBody = z.infer<typeof UpdateEventTriggerBody>;

export const ListEventTriggersQuery = z.object({ appId: uuid() });
export const EventTriggerIdParams = z.object({ triggerId: uuidParam() });

export const FireEventBody = z
  .object({
    deviceId: z.string().min(1).max(100).openapi({ format: 'uuid', description: "A device of the key's app" }),
    eventName: text(MAX_EVENT_NAME).openapi({ example: 'purchase_completed' }),
    properties: z
      .record(z.unknown())
      .default({})
      .superRefine((p, ctx) => {
        const bytes = Buffer.byteLength(JSON.stringify(p));
        if (bytes > MAX_PROPERTIES_BYTES) ctx.addIssue({ code: z.ZodIssueCode.custom, message: `at most ${MAX_PROPERTIES_BYTES} bytes of JSON (got ${bytes})` });
      })
      .openapi({ description: 'The event\'s properties: conditions and placeholders read their top-level keys', example: { amount: 120, item: 'boots' } }),
  })
  .strict()
  .openapi('FireEventRequest');
export type FireEventBody = z.infer<typeof FireEventBody>;

export const EventTriggerResponse = registry.register(
  'EventTrigger',
  z.object({
    id: z.string().openapi({ format: 'uuid' }),
    appId: z.string().openapi({ format: 'uuid' }),
    name: z.string(),
    eventName: z.string(),
    delayMinutes: z.number().int(),
    conditions: z.array(
      z.object({
        field: z.string(),
        operator: z.enum(TRIGGER_OPERATORS),
        value: z.union([z.string(), z.number(), z.boolean(), z.null()]).optional(),
      }),
    ),
    title: z.string(),
    body: z.string(),
    enabled: z.boolean(),
    createdAt: z.string().openapi({ format: 'date-time' }),
    updatedAt: z.string().openapi({ format: 'date-time' }),
  }),
);
export type EventTriggerResponse = z.infer<typeof EventTriggerResponse>;

export const EventTriggerList = registry.register('EventTriggerList', z.array(EventTriggerResponse));

export const FireEventResponse = registry.register(
  'FireEventResponse',
  z.object({ triggersMatched: z.number().int().openapi({ description: 'Enabled triggers of the event whose conditions held: one push each, when due' }) }),
);

// The OpenAPI paths of the resource, from the schemas above.

const tags = ['Event triggers'];

registry.registerPath({
  method: 'post',
  path: '/api/v1/event-triggers',
  summary: 'Create an event trigger',
  description:
    'A fired event of this name whose conditions all hold sends title and body ({{properties.<name>}} filled from the ' +
    'fired properties) to the device after delayMinutes. docs/push.md describes each operator.',
  tags,
  security: USER_OR_API_KEY,
  request: jsonBody(CreateEventTriggerBody),
  responses: { 201: json(EventTriggerResponse, 'the trigger'), ...errorResponses(400, 404) },
});

registry.registerPath({
  method: 'get',
  path: '/api/v1/event-triggers',
  summary: "An app's event triggers (a plain array, oldest first)",
  tags,
  security: USER_OR_API_KEY,
  request: { query: ListEventTriggersQuery },
  responses: { 200: json(EventTriggerList, 'the triggers'), ...errorResponses(400, 404) },
});

registry.registerPath({
  method: 'get',
  path: '/api/v1/event-triggers/{triggerId}',
  summary: 'One event trigger',
  tags,
  security: USER_OR_API_KEY,
  request: { params: EventTriggerIdParams },
  responses: { 200: json(EventTriggerResponse, 'the trigger'), ...errorResponses(404) },
});

registry.registerPath({
  method: 'patch',
  path: '/api/v1/event-triggers/{triggerId}',
  summary: 'Enable, disable or edit an event trigger',
  description: 'Changes apply to later fires. A waiting firing keeps its text and time, and sends nothing if its trigger is disabled when it is due.',
  tags,
  security: USER_OR_API_KEY,
  request: { params: EventTriggerIdParams, ...jsonBody(UpdateEventTriggerBody) },
  responses: { 200: json(EventTriggerResponse, 'the trigger as changed'), ...errorResponses(400, 404) },
});

registry.registerPath({
  method: 'delete',
  path: '/api/v1/event-triggers/{triggerId}',
  summary: 'Delete an event trigger (its waiting firings send nothing)',
  tags,
  security: USER_OR_API_KEY,
  request: { params: EventTriggerIdParams },
  responses: { 204: { description: 'deleted' }, ...errorResponses(404) },
});

registry.registerPath({
  method: 'post',
  path: '/api/v1/event-triggers/fire',
  summary: "Fire an event for a device of the key's app (API key only)",
  description:
    "Every enabled trigger of the key's app with this eventName whose conditions hold starts one push to the device after " +
    'its delay. An unknown device (or another app\'s) is a 404. Firing twice sends twice unless the same Idempotency-Key is sent.',
  tags,
  security: API_KEY_ONLY,
  request: jsonBody(FireEventBody),
  responses: { 202: json(FireEventResponse, 'accepted'), ...errorResponses(400, 404, 503) },
});

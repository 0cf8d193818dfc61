// Per-workspace ticketing settings (auto-close threshold, SLA targets). The ticketing spec says
// the 72 h auto-close is "configurable per workspace" without an endpoint; this is ours.
import { z } from '../../zod';
import { PRIORITIES, type Priority } from '../../../domain/workspaces/types';
import { errorResponses, registry, security, json } from '../openapi-registry';

export const MAX_AUTO_CLOSE_HOURS = 8760; // one year
export const MAX_SLA_MINUTES = 525_600; // one year

const hours = z
  .number()
  .int('must be an integer')
  .min(1, 'must be at least 1')
  .max(MAX_AUTO_CLOSE_HOURS, `must be at most ${MAX_AUTO_CLOSE_HOURS}`);
const minutes = z
  .number()
  .int('must be an integer')
  .positive('must be a positive integer')
  .max(MAX_SLA_MINUTES, `must be at most ${MAX_SLA_MINUTES}`);

const SlaTarget = z.object({ firstResponseMinutes: minutes, resolutionMinutes: minutes });

const perPriority = <T extends z.ZodTypeAny>(schema: T) =>
  z.object(Object.fromEntries(PRIORITIES.map((p) => [p, schema])) as Record<Priority, T>);

/** The resolved settings, as GET and PATCH return them (and as validated after a merge). */
export const WorkspaceSettingsResponse = registry.register(
  'WorkspaceSettings',
  z.object({
    workspaceId: z.string(),
    autoCloseHours: hours.openapi({ description: 'a resolved ticket with no player reply closes after this many hours' }),
    sla: perPriority(
      SlaTarget.refine((t) => t.firstResponseMinutes <= t.resolutionMinutes, {
        message: 'firstResponseMinutes must not exceed resolutionMinutes',
      }),
    ),
  }),
);
export type WorkspaceSettingsResponse = z.infer<typeof WorkspaceSettingsResponse>;

/**
 * A JSON merge patch (RFC 7396 style): given fields replace, nested objects merge,
 * `null` resets a field (or a whole priority, or all of sla) to the default.
 * Unknown fields are a 400 so a misspelt setting is never silently ignored.
 */
export const SettingsPatchBody = z
  .object({
    autoCloseHours: hours.nullable().optional(),
    sla: perPriority(
      z
        .object({ firstResponseMinutes: minutes.nullable().optional(), resolutionMinutes: minutes.nullable().optional() })
        .strict()
        .nullable()
        .optional(),
    )
      .strict()
      .nullable()
      .optional(),
  })
  .strict()
  .openapi('WorkspaceSettingsPatch');
export type SettingsPatchBody = z.infer<typeof SettingsPatchBody>;

export const SettingsParams = z.object({ workspace_id: z.string().openapi({ example: 'ws_01jd3k8xq7' }) });

registry.registerPath({
  method: 'get',
  path: '/v1/workspaces/{workspace_id}/settings',
  summary: "A workspace's ticketing settings, defaults filled in",
  description: 'Needs tickets:read; server keys only.',
  security,
  request: { params: SettingsParams },
  responses: { 200: json(WorkspaceSettingsResponse, 'The settings'), ...errorResponses(400) },
});

registry.registerPath({
  method: 'patch',
  path: '/v1/workspaces/{workspace_id}/settings',
  summary: 'Change ticketing settings (deep merge)',
  description:
    'Needs admin:all. Applies to tickets resolved (auto-close) or created (SLA) after the change; ' +
    'timers already running keep the settings they started with.',
  security,
  request: { params: SettingsParams, body: { content: { 'application/json': { schema: SettingsPatchBody } } } },
  responses: { 200: json(WorkspaceSettingsResponse, 'The settings after the change'), ...errorResponses(400) },
});

// Campaigns (the push spec, and the extensions docs/push.md "Campaigns" documents): request
// and response schemas and their OpenAPI paths. `targetType` is `Segment` (with
// `segmentId`) or `All`, accepted in any letter case and answered in that spelling.
import { z } from '../../zod';
import { json, jsonBody } from '../../kit/openapi';
import { PageQuery, PageSchema } from '../../kit/pagination';
import { trimmedText, uuidField as uuid, uuidParam } from '../../kit/fields';
import { CAMPAIGN_STATUSES, CAMPAIGN_TARGETS } from '../../../domain/push/types';
import { CustomData, MAX_PAYLOAD_BYTES } from '../notifications/schema';
import { errorResponses, registry, USER_OR_API_KEY } from '../openapi';


const TargetType = z
  .string()
  .transform((v, ctx) => {
    const t = CAMPAIGN_TARGETS.find((x) => x.toLowerCase() === v.toLowerCase());
    if (!t) ctx.addIssue({ code: z.ZodIssueCode.custom, message: `must be one of ${CAMPAIGN_TARGETS.join(', ')} (any letter case)` });
    return t ?? z.NEVER;
  })
  .openapi({ type: 'string', enum: [...CAMPAIGN_TARGETS], description: 'Segment (with segmentId) or All (every active device of the app), any letter case' });

const HttpUrl = z
  .string()
  .max(2048, 'must be at most 2048 characters')
  .refine((s) => /^https?:\/\/[^\s]+$/i.test(s), 'must be an http(s) URL');

export const CreateCampaignBody = z
  .object({
    appId: uuid(),
    name: trimmedText(200).openapi({ example: 'Black Friday' }),
    title: trimmedText(256).openapi({ example: '50% off today' }),
    body: trimmedText(2048).openapi({ example: 'Everything in the shop, until midnight' }),
    imageUrl: HttpUrl.nullish(),
    deepLink: z.string().max(2048).nullish(),
    customData: CustomData.nullish(),
    targetType: TargetType,
    segmentId: uuid().nullish(),
  })
  .strict()
  .superRefine((b, ctx) => {
    if (b.customData && 'imageUrl' in b.customData) ctx.addIssue({ code: 'custom', path: ['customData', 'imageUrl'], message: "'imageUrl' is a reserved key (the campaign's imageUrl goes there)" });
    if (b.targetType === 'Segment' && !b.segmentId) ctx.addIssue({ code: 'custom', path: ['segmentId'], message: 'is required when targetType is Segment' });
    if (b.targetType === 'All' && b.segmentId) ctx.addIssue({ code: 'custom', path: ['segmentId'], message: 'must be absent when targetType is All' });
    const bytes = Buffer.byteLength(JSON.stringify([b.title, b.body, b.deepLink ?? '', b.imageUrl ?? '', b.customData ?? {}]));
    if (bytes > MAX_PAYLOAD_BYTES) {
      ctx.addIssue({ code: 'custom', path: ['customData'], message: `title, body, deepLink, imageUrl and customData take ${bytes} bytes; a push holds at most ${MAX_PAYLOAD_BYTES}` });
    }
  })
  .openapi('CreateCampaignRequest');
export type CreateCampaignBody = z.infer<typeof CreateCampaignBody>;

export const ScheduleCampaignBody = z
  .object({
    scheduledAt: z
      .string()
      .datetime({ offset: true, message: 'must be an ISO 8601 date-time with its offset' })
      .openapi({ format: 'date-time', example: '2026-12-01T09:00:00Z', description: 'When to send; must be in the future' }),
  })
  .strict()
  .openapi('ScheduleCampaignRequest');

export const ListCampaignsQuery = PageQuery.extend({ appId: uuid() });
export const CampaignIdParams = z.object({ campaignId: uuidParam() });

export const CampaignResponse = registry.register(
  'Campaign',
  z.object({
    id: z.string().openapi({ format: 'uuid' }),
    appId: z.string().openapi({ format: 'uuid' }),
    name: z.string(),
    title: z.string(),
    body: z.string(),
    imageUrl: z.string().nullable(),
    deepLink: z.string().nullable(),
    customData: z.record(z.unknown()),
    targetType: z.enum(CAMPAIGN_TARGETS),
    segmentId: z.string().nullable().openapi({ format: 'uuid' }),
    status: z.enum(CAMPAIGN_STATUSES),
    scheduledAt: z.string().nullable().openapi({ format: 'date-time' }),
    recipients: z.number().int().nullable().openapi({ description: 'devices in the audience snapshot, once sending started' }),
    failureReason: z.string().nullable(),
    createdAt: z.string().openapi({ format: 'date-time' }),
    updatedAt: z.string().openapi({ format: 'date-time' }),
    startedAt: z.string().nullable().openapi({ format: 'date-time' }),
    finishedAt: z.string().nullable().openapi({ format: 'date-time' }),
  }),
);
export type CampaignResponse = z.infer<typeof CampaignResponse>;

export const CampaignPage = registry.register('CampaignPage', PageSchema(CampaignResponse));

export const SendCampaignResponse = registry.register(
  'SendCampaignResponse',
  z.object({
    campaignId: z.string().openapi({ format: 'uuid' }),
    status: z.literal('Queued'),
    estimatedRecipients: z.number().int().openapi({ description: 'active devices of the audience now; the snapshot is taken when sending starts' }),
  }),
);

export const CancelCampaignResponse = registry.register(
  'CancelCampaignResponse',
  CampaignResponse.extend({ alreadySent: z.number().int().openapi({ description: 'devices pushed before the cancel took effect' }) }),
);

const PlatformCounts = z.object({ sent: z.number().int(), delivered: z.number().int(), opened: z.number().int(), failed: z.number().int() });
export const CampaignAnalyticsResponse = registry.register(
  'CampaignAnalytics',
  z.object({
    campaignId: z.string().openapi({ format: 'uuid' }),
    sent: z.number().int(),
    delivered: z.number().int(),
    opened: z.number().int(),
    failed: z.number().int(),
    deliveryRate: z.number().min(0).max(1),
    openRate: z.number().min(0).max(1),
    platformBreakdown: z.object({ android: PlatformCounts, ios: PlatformCounts }),
  }),
);
export type CampaignAnalyticsResponse = z.infer<typeof CampaignAnalyticsResponse>;

// The OpenAPI paths of the resource, from the schemas above.

const path = (method: 'get' | 'post', p: string, summary: string, rest: object) =>
  registry.registerPath({ method, path: `/api/v1${p}`, summary, tags: ['Campaigns'], security: USER_OR_API_KEY, ...rest } as Parameters<typeof registry.registerPath>[0]);

path('post', '/campaigns', 'Create a campaign (status Draft)', {
  description: 'An unknown segment of the app is a 404.',
  request: jsonBody(CreateCampaignBody),
  responses: { 201: json(CampaignResponse, 'the campaign'), ...errorResponses(400, 404) },
});
path('get', '/campaigns', "An app's campaigns, newest first (paged; extension)", {
  request: { query: ListCampaignsQuery },
  responses: { 200: json(CampaignPage, 'a page of campaigns'), ...errorResponses(400, 404) },
});
path('get', '/campaigns/{campaignId}', 'A campaign (extension)', {
  request: { params: CampaignIdParams },
  responses: { 200: json(CampaignResponse, 'the campaign'), ...errorResponses(404) },
});
path('post', '/campaigns/{campaignId}/send', 'Send a Draft campaign now', {
  description: 'Queued at once; its workflow snapshots the audience and pushes it. A campaign that is no Draft (sent, scheduled, finished) is a 409.',
  request: { params: CampaignIdParams },
  responses: { 202: json(SendCampaignResponse, 'queued'), ...errorResponses(404, 409) },
});
path('post', '/campaigns/{campaignId}/schedule', 'Schedule a Draft campaign, or move a Scheduled one', {
  description: 'scheduledAt must be in the future and at most 366 days ahead (else 400). A campaign sending or finished is a 409.',
  request: { params: CampaignIdParams, ...jsonBody(ScheduleCampaignBody) },
  responses: { 200: json(CampaignResponse, 'the campaign, Scheduled'), ...errorResponses(400, 404, 409) },
});
path('post', '/campaigns/{campaignId}/cancel', 'Cancel a campaign (extension)', {
  description: 'A Draft or Scheduled campaign never sends; a sending one stops after the pages in flight. A finished campaign is a 409.',
  request: { params: CampaignIdParams },
  responses: { 200: json(CancelCampaignResponse, 'the campaign, Cancelled, and how many devices were pushed'), ...errorResponses(404, 409) },
});
path('get', '/campaigns/{campaignId}/analytics', "A campaign's analytics from the recorded facts", {
  request: { params: CampaignIdParams },
  responses: { 200: json(CampaignAnalyticsResponse, 'the counts and rates'), ...errorResponses(404) },
});

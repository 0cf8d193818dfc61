// Trial onboarding (the push spec, "Trial onboarding"; docs/trial-onboarding.md): the public
// request, the super-admin's list and actions, their schemas and OpenAPI paths.
import { z } from '../../zod';
import { json, jsonBody } from '../../kit/openapi';
import { PageQuery, PageSchema } from '../../kit/pagination';
import { trimmedText, uuidParam } from '../../kit/fields';
import { TRIAL_REQUEST_STATUSES } from '../../../domain/onboarding/types';
import { errorResponses, registry, USER_ONLY } from '../openapi';

const text = trimmedText;
const slug = z
  .string()
  .trim()
  .min(1, 'must not be blank')
  .max(64, 'must be at most 64 characters')
  .regex(/^[a-z0-9][a-z0-9_-]*$/i, 'must be letters, digits, - and _')
  .openapi({ example: 'growth' });
const days = z.number().int('must be a whole number').min(1, 'must be at least 1').max(90, 'must be at most 90');

export const SubmitTrialRequestBody = z
  .object({
    companyName: text(200).openapi({ example: 'Pixel Forge' }),
    fullName: text(200).openapi({ example: 'Robin Example' }),
    email: z.string().trim().toLowerCase().min(3).max(254).email('must be an email address').openapi({ example: 'robin@pixelforge.example' }),
    website: text(2048).refine((s) => /^https?:\/\/\S+$/i.test(s), 'must be an http(s) URL').openapi({ example: 'https://pixelforge.example' }),
    useCase: text(4000).openapi({ example: 'Re-engagement pushes for our mobile RPG' }),
    expectedMonthlyNotifications: z.number().int('must be a whole number').min(0).max(2_000_000_000).openapi({ example: 250000 }),
    requestedPlanSlug: slug,
  })
  .strict()
  .openapi('TrialRequestSubmission');

export const TrialRequestSummary = registry.register(
  'TrialRequestSummary',
  z.object({
    id: z.string().openapi({ format: 'uuid' }),
    status: z.enum(TRIAL_REQUEST_STATUSES as ['Submitted', 'Approved', 'Rejected']),
    email: z.string(),
    createdAt: z.string().openapi({ format: 'date-time' }),
  }),
);

const SetupEmail = z.object({
  state: z.enum(['none', 'sent', 'logged']).openapi({ description: 'none: not sent yet; sent: a provider accepted it; logged: only the log fallback took it' }),
  attempts: z.number().int(),
  lastAttemptAt: z.string().nullable().openapi({ format: 'date-time' }),
  provider: z.string().nullable().openapi({ description: 'postmark, smtp or log' }),
  providerMessageId: z.string().nullable(),
  lastError: z.string().nullable().openapi({ description: 'what failed before the provider that took it' }),
  lastLinkGeneratedAt: z.string().nullable().openapi({ format: 'date-time' }),
});

export const TrialRequestAdminView = registry.register(
  'TrialRequestAdminView',
  TrialRequestSummary.extend({
    fullName: z.string(),
    companyName: z.string(),
    website: z.string(),
    useCase: z.string(),
    expectedMonthlyNotifications: z.number().int(),
    requestedPlanSlug: z.string(),
    planSlug: z.string().nullable(),
    trialDays: z.number().int().nullable(),
    adminNotes: z.string().nullable(),
    decidedAt: z.string().nullable().openapi({ format: 'date-time' }),
    companyId: z.string().nullable().openapi({ format: 'uuid' }),
    companyStatus: z.string().nullable().openapi({ description: 'trial, trial_expired or active; null before approval' }),
    trialEndsAt: z.string().nullable().openapi({ format: 'date-time' }),
    passwordSetAt: z.string().nullable().openapi({ format: 'date-time' }),
    setupEmail: SetupEmail,
    updatedAt: z.string().openapi({ format: 'date-time' }),
  }),
);
export type TrialRequestAdminView = z.infer<typeof TrialRequestAdminView>;
export type TrialRequestSummary = z.infer<typeof TrialRequestSummary>;

export const TrialRequestPage = registry.register('TrialRequestPage', PageSchema(TrialRequestAdminView));

export const ListTrialRequestsQuery = PageQuery.extend({
  status: z
    .string()
    .transform((v, ctx) => {
      const s = TRIAL_REQUEST_STATUSES.find((x) => x.toLowerCase() === v.toLowerCase());
      if (!s) ctx.addIssue({ code: 'custom', message: `must be one of ${TRIAL_REQUEST_STATUSES.join(', ')}` });
      return s ?? z.NEVER;
    })
    .optional()
    .openapi({ type: 'string', enum: [...TRIAL_REQUEST_STATUSES] }),
});
export const TrialRequestIdParams = z.object({ id: uuidParam() });

export const ApproveBody = z
  .object({
    planSlug: slug,
    trialDays: days.openapi({ example: 14 }),
    adminNotes: z.string().trim().max(4000).nullish(),
  })
  .strict()
  .openapi('TrialApproval');
export const RejectBody = z.object({ adminNotes: text(4000).openapi({ example: 'Not a game studio' }) }).strict().openapi('TrialRejection');
export const ExtendBody = z.object({ days: days.openapi({ example: 7 }) }).strict().openapi('TrialExtension');
export const SetupLinkResponse = registry.register(
  'SetupLink',
  z.object({
    setupUrl: z.string().openapi({ description: 'The raw set-password link, shown only in this answer' }),
    expiresAt: z.string().openapi({ format: 'date-time' }),
  }),
);

// The OpenAPI paths of the resource, from the schemas above.

const admin = (method: 'get' | 'post', p: string, summary: string, rest: object) =>
  registry.registerPath({ method, path: `/api/v1/admin/trial-requests${p}`, summary, tags: ['Trial onboarding'], security: USER_ONLY, ...rest } as Parameters<typeof registry.registerPath>[0]);
const idParams = { params: TrialRequestIdParams };

registry.registerPath({
  method: 'post',
  path: '/api/v1/trial-requests',
  summary: 'Ask for a trial (public)',
  description: 'An open request (Submitted or Approved) for the same email is answered instead (200). Rate-limited per client IP.',
  tags: ['Trial onboarding'],
  security: [],
  request: jsonBody(SubmitTrialRequestBody),
  responses: { 201: json(TrialRequestSummary, 'the request'), 200: json(TrialRequestSummary, 'the open request of this email'), ...errorResponses(400) },
});
admin('get', '', 'Trial requests, newest first (super-admin; paged)', {
  request: { query: ListTrialRequestsQuery },
  responses: { 200: json(TrialRequestPage, 'a page of requests'), ...errorResponses(400, 403) },
});
admin('get', '/{id}', 'A trial request (super-admin)', { request: idParams, responses: { 200: json(TrialRequestAdminView, 'the request'), ...errorResponses(403, 404) } });
admin('post', '/{id}/approve', 'Approve: provisions company, owner and membership, emails the setup link', {
  request: { ...idParams, ...jsonBody(ApproveBody) },
  responses: { 200: json(TrialRequestAdminView, 'the request, Approved'), ...errorResponses(400, 403, 404, 409) },
});
admin('post', '/{id}/reject', 'Reject with a reason', {
  request: { ...idParams, ...jsonBody(RejectBody) },
  responses: { 200: json(TrialRequestAdminView, 'the request, Rejected'), ...errorResponses(400, 403, 404, 409) },
});
admin('post', '/{id}/setup-link', 'A fresh setup link (older ones void), answered once', {
  request: idParams,
  responses: { 200: json(SetupLinkResponse, 'the link'), ...errorResponses(403, 404, 409) },
});
admin('post', '/{id}/resend-setup', 'Email a fresh setup link (older ones void)', {
  request: idParams,
  responses: { 202: json(TrialRequestAdminView, 'the request; the email goes out right after'), ...errorResponses(403, 404, 409) },
});
admin('post', '/{id}/extend', "Extend the trial by days (from its end, or from now once ended)", {
  request: { ...idParams, ...jsonBody(ExtendBody) },
  responses: { 200: json(TrialRequestAdminView, 'the request with its new trialEndsAt'), ...errorResponses(400, 403, 404, 409) },
});

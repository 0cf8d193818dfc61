import type { TrialRequestRecord } from '../../../domain/onboarding/types';
import type { TrialRequestAdminView } from './schema';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** The public summary: nothing but the id, status, email and time (the spec's non-secret summary). */
export function presentSummary(r: TrialRequestRecord) {
  return { id: r.id, status: r.status, email: r.email, createdAt: iso(r.createdAt)! };
}

/** What a super-admin sees: the request, the decision, the trial, the setup email's bookkeeping; never a token. */
export function presentAdminView(r: TrialRequestRecord): TrialRequestAdminView {
  return {
    ...presentSummary(r),
    fullName: r.fullName,
    companyName: r.companyName,
    website: r.website,
    useCase: r.useCase,
    expectedMonthlyNotifications: r.expectedMonthlyNotifications,
    requestedPlanSlug: r.requestedPlanSlug,
    planSlug: r.planSlug,
    trialDays: r.trialDays,
    adminNotes: r.adminNotes,
    decidedAt: iso(r.decidedAt),
    companyId: r.companyId,
    companyStatus: r.companyStatus,
    trialEndsAt: iso(r.trialEndsAt),
    passwordSetAt: iso(r.passwordSetAt),
    setupEmail: {
      state: r.setupEmailState,
      attempts: r.setupEmailAttempts,
      lastAttemptAt: iso(r.setupEmailLastAttemptAt),
      provider: r.setupEmailProvider,
      providerMessageId: r.setupEmailMessageId,
      lastError: r.setupEmailLastError,
      lastLinkGeneratedAt: iso(r.setupLinkGeneratedAt),
    },
    updatedAt: iso(r.updatedAt)!,
  };
}

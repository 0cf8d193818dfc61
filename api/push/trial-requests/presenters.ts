import type { TrialRequestRecord } from '../../../domain/onboarding/types';
import type { TrialRequestAdminView, TrialRequestSummary } from './schema';
import { iso, isoOrNull } from '../../kit/dates';


/** The public summary: nothing but the id, status, email and time (the spec's non-secret summary). */
export function presentSummary(r: TrialRequestRecord): TrialRequestSummary {
  return { id: r.id, status: r.status, email: r.email, createdAt: iso(r.createdAt) };
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
    decidedAt: isoOrNull(r.decidedAt),
    companyId: r.companyId,
    companyStatus: r.companyStatus,
    trialEndsAt: isoOrNull(r.trialEndsAt),
    passwordSetAt: isoOrNull(r.passwordSetAt),
    setupEmail: {
      state: r.setupEmailState,
      attempts: r.setupEmailAttempts,
      lastAttemptAt: isoOrNull(r.setupEmailLastAttemptAt),
      provider: r.setupEmailProvider,
      providerMessageId: r.setupEmailMessageId,
      lastError: r.setupEmailLastError,
      lastLinkGeneratedAt: isoOrNull(r.setupLinkGeneratedAt),
    },
    updatedAt: iso(r.updatedAt),
  };
}

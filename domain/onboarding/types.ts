// The records of trial onboarding (docs/trial-onboarding.md) as the domain and the API see them.
export type TrialRequestStatus = 'Submitted' | 'Approved' | 'Rejected';
export const TRIAL_REQUEST_STATUSES: readonly TrialRequestStatus[] = ['Submitted', 'Approved', 'Rejected'];

export type SetupEmailState = 'none' | 'sent' | 'logged';

export interface NewTrialRequest {
  email: string;
  fullName: string;
  companyName: string;
  website: string;
  useCase: string;
  expectedMonthlyNotifications: number;
  requestedPlanSlug: string;
}

export interface TrialRequestRecord extends NewTrialRequest {
  id: string;
  status: TrialRequestStatus;
  planSlug: string | null;
  trialDays: number | null;
  adminNotes: string | null;
  decidedBy: string | null;
  decidedAt: Date | null;
  companyId: string | null;
  ownerId: string | null;
  /** the approved company's status: trial | trial_expired | active; null before approval */
  companyStatus: string | null;
  trialEndsAt: Date | null;
  /** when the owner used a setup link */
  passwordSetAt: Date | null;
  setupEmailState: SetupEmailState;
  setupEmailAttempts: number;
  setupEmailLastAttemptAt: Date | null;
  setupEmailProvider: string | null;
  setupEmailMessageId: string | null;
  setupEmailLastError: string | null;
  setupLinkGeneratedAt: Date | null;
  remindedFor: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** What token info answers (push spec: Token info); every field null when the token is not valid. */
export interface SetupTokenInfo {
  email: string | null;
  fullName: string | null;
  companyName: string | null;
  expiresAt: Date | null;
  isValid: boolean;
}

/** A setup token with whom it is for; `open`: not used, voided or marked expired. */
export interface SetupTokenRow {
  id: string;
  trialRequestId: string;
  userId: string;
  expiresAt: Date;
  open: boolean;
  email: string;
  fullName: string;
  companyName: string;
}

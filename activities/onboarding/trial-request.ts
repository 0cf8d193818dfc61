// The trial request workflow's activities (workflows/onboarding/contract.ts) over the
// onboarding commands (domain/onboarding). Times arrive as ISO strings from the workflow.
import type { Db } from '../../db/db';
import { provisionTrial, rejectTrialRequest } from '../../domain/onboarding/decide-trial-request';
import { sendSetupEmail, sendTrialReminder } from '../../domain/onboarding/emails';
import { expireSetupToken, issueSetupToken } from '../../domain/onboarding/setup-tokens';
import { expireTrial, extendTrial } from '../../domain/onboarding/trial-clock';
import type { EmailChain } from '../../lib/email/types';
import type { TrialRequestActivities } from '../../workflows/onboarding/contract';
import { withDomainFailures } from '../failures';
import { heartbeating } from '../heartbeat';

export interface TrialRequestActivityDeps {
  db: Db;
  chain: EmailChain;
  /** lib/setup-tokens.ts setupTokenKey */
  tokenKey: Buffer;
  appUrl: string;
}

export function createTrialRequestActivities(deps: TrialRequestActivityDeps): TrialRequestActivities {
  const { db } = deps;
  const iso = (d: Date | null) => (d ? d.toISOString() : '');
  return withDomainFailures<TrialRequestActivities>({
    async provisionTrial(input) {
      const made = await provisionTrial(db, { ...input, trialEndsAt: new Date(input.trialEndsAt) });
      return { status: 'Approved', companyId: made.companyId, ownerId: made.ownerId, trialEndsAt: iso(made.trialEndsAt) };
    },
    rejectTrialRequest: (input) => rejectTrialRequest(db, input),
    async issueSetupToken(input) {
      const t = await issueSetupToken(db, deps.tokenKey, { ...input, createdAt: new Date(input.createdAt), expiresAt: new Date(input.expiresAt) });
      return { tokenId: t.tokenId, expiresAt: iso(t.expiresAt) };
    },
    sendSetupEmail: (input) => heartbeating(() => sendSetupEmail(deps.db, deps, input)),
    expireSetupToken: ({ tokenId }) => expireSetupToken(db, tokenId),
    sendTrialReminder: ({ requestId, trialEndsAt }) => heartbeating(() => sendTrialReminder(deps.db, deps, { requestId, trialEndsAt: new Date(trialEndsAt) })),
    async expireTrial({ requestId, at }) {
      const r = await expireTrial(db, { requestId, at: new Date(at) });
      return { expired: r.expired, trialEndsAt: iso(r.trialEndsAt) };
    },
    async extendTrial({ requestId, days, at, actorId }) {
      return { trialEndsAt: iso(await extendTrial(db, { requestId, days, at: new Date(at), actorId })) };
    },
  });
}

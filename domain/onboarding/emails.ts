// The two emails of onboarding: the set-password link and the trial reminder, through the
// email chain (lib/email). Every setup email attempt is recorded on the request.
import type { Db } from '../../db/db';
import { findSetupTokenById } from '../../db/repositories/push-setup-tokens';
import { claimReminder, findTrialRequest, insertAuditEvent, recordSetupEmailAttempt } from '../../db/repositories/push-trial-requests';
import type { EmailChain, EmailMessage } from '../../lib/email/types';
import { setupTokenOf, setupUrlOf } from '../../lib/setup-tokens';
import { trialRequestNotFound } from './errors';
import type { TrialRequestRecord } from './types';

/** What the emails need beside the executor they record on. */
export interface EmailDeps {
  chain: EmailChain;
  /** lib/setup-tokens.ts setupTokenKey */
  tokenKey: Buffer;
  appUrl: string;
}

export function setupEmail(r: TrialRequestRecord, url: string, expiresAt: Date): EmailMessage {
  const text = [
    `Hi ${r.fullName},`,
    '',
    `Your trial for ${r.companyName} is approved. Set your password to sign in:`,
    '',
    url,
    '',
    `The link works once and until ${expiresAt.toISOString()}. If it has expired, ask us for a new one.`,
  ].join('\n');
  return { to: r.email, subject: 'Set your password to start your trial', text, tag: 'setup-password', logText: `setup link for ${r.email}: ${url}` };
}

/**
 * Emails the link of token `tokenId` (re-derived from its id: the raw token is never
 * stored) and records the attempt: who took it, its id, the errors before it; audit
 * `trial_request.setup_email_sent` when a provider accepted it. A token that is no longer
 * open (used, voided by a newer one, expired) is not sent: answers null.
 */
export async function sendSetupEmail(db: Db, deps: EmailDeps, input: { requestId: string; tokenId: string }) {
  const [r, token] = await Promise.all([findTrialRequest(db, input.requestId), findSetupTokenById(db, input.tokenId)]);
  if (!r) throw trialRequestNotFound(input.requestId);
  if (!token?.open) return null;
  const url = setupUrlOf(deps.appUrl, setupTokenOf(deps.tokenKey, input.tokenId));
  const outcome = await deps.chain.send(setupEmail(r, url, token.expiresAt));
  const state = outcome.delivered ? ('sent' as const) : ('logged' as const);
  await db.transaction(async (m) => {
    await recordSetupEmailAttempt(m, r.id, { state, provider: outcome.provider, messageId: outcome.messageId, lastError: outcome.errors.join('; ') || null });
    if (outcome.delivered) {
      await insertAuditEvent(m, {
        type: 'trial_request.setup_email_sent',
        trialRequestId: r.id,
        companyId: r.companyId,
        details: { provider: outcome.provider, messageId: outcome.messageId, tokenId: input.tokenId },
      });
    }
  });
  return { state, provider: outcome.provider, messageId: outcome.messageId };
}

/** The reminder of the trial ending at `trialEndsAt`, once per end (an extension makes a new end). */
export async function sendTrialReminder(db: Db, deps: EmailDeps, input: { requestId: string; trialEndsAt: Date }): Promise<void> {
  const r = await findTrialRequest(db, input.requestId);
  if (!r) throw trialRequestNotFound(input.requestId);
  if (r.companyStatus !== 'trial' || !(await claimReminder(db, r.id, input.trialEndsAt))) return;
  const text = [
    `Hi ${r.fullName},`,
    '',
    `The trial of ${r.companyName} ends on ${input.trialEndsAt.toISOString()}. After that its API keys stop working until the trial is extended or a plan is chosen.`,
    '',
    `Sign in: ${deps.appUrl}`,
  ].join('\n');
  const outcome = await deps.chain.send({ to: r.email, subject: 'Your trial ends in 3 days', text, tag: 'trial-reminder', logText: `trial reminder for ${r.email}` });
  await insertAuditEvent(db, {
    type: 'trial.reminder_sent',
    trialRequestId: r.id,
    companyId: r.companyId,
    details: { trialEndsAt: input.trialEndsAt.toISOString(), provider: outcome.provider, delivered: outcome.delivered },
  });
}

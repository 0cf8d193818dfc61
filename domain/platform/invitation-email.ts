// The invitation email of the platform API (docs/platform.md, "Users"): the activation link
// of an invited user, through the email chain (lib/email). The link is re-derived from its
// id (activation-token.ts): nothing secret is stored or passed through a workflow.
import type { Db } from '../../db/db';
import { findActivationToken, findPlatformUserView } from '../../db/repositories/platform-users';
import type { EmailChain, EmailMessage } from '../../lib/email/types';
import { activationTokenOf, activationUrlOf, hashActivationToken } from './activation-token';

export interface InvitationEmailDeps {
  chain: EmailChain;
  /** activation-token.ts activationTokenKey */
  tokenKey: Buffer;
  appUrl: string;
}

export function invitationEmail(to: string, name: string, url: string, expiresAt: Date): EmailMessage {
  const text = [
    `Hi ${name},`,
    '',
    'You are invited to the support platform. Activate your account with this link:',
    '',
    url,
    '',
    `It works once and until ${expiresAt.toISOString()}. Activating gives you your first API token (service_test_…).`,
  ].join('\n');
  return { to, subject: 'Activate your support platform account', text, tag: 'platform-invitation', logText: `platform activation link for ${to}: ${url}` };
}

/** The email of a reactivated user: their access is back, and this link gives them a first token again. */
export function signInAgainEmail(to: string, name: string, url: string, expiresAt: Date): EmailMessage {
  const text = [
    `Hi ${name},`,
    '',
    'Your access to the support platform was restored. Your earlier API tokens stay revoked; get a new one with this link:',
    '',
    url,
    '',
    `It works once and until ${expiresAt.toISOString()}. It gives you a sandbox API token (service_test_…); make others with it.`,
  ].join('\n');
  return { to, subject: 'Your support platform access is restored', text, tag: 'platform-reactivation', logText: `platform sign-in link for ${to}: ${url}` };
}

/**
 * Emails the link `linkId` of invited user `userId`: 'sent' when a provider took it,
 * 'logged' when none is configured and the log line took it, 'void' when the link is no
 * longer open (used, voided by a newer invitation or a deactivation, expired at `now`).
 * A configured provider that refused throws, so the activity is retried.
 */
export async function sendInvitationEmail(db: Db, deps: InvitationEmailDeps, input: { userId: string; linkId: string }, now: Date): Promise<'sent' | 'logged' | 'void'> {
  const token = activationTokenOf(deps.tokenKey, input.linkId);
  const [link, user] = await Promise.all([findActivationToken(db, hashActivationToken(token)), findPlatformUserView(db, input.userId)]);
  if (!link || link.usedAt || link.expiresAt.getTime() <= now.getTime() || !user || !user.email) return 'void';
  if (user.status !== 'invited' && user.status !== 'active') return 'void';
  // an active user's open link is a reactivation's sign-in link (activation spends an invitation's)
  const compose = user.status === 'active' ? signInAgainEmail : invitationEmail;
  const outcome = await deps.chain.send(compose(user.email, user.name ?? user.email, activationUrlOf(deps.appUrl, token), link.expiresAt));
  if (outcome.delivered) return 'sent';
  if (deps.chain.providers.length > 1) throw new Error(`invitation email not accepted: ${outcome.errors.join('; ')}`);
  return 'logged';
}

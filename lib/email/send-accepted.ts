// Sending for a caller whose step must not pass until a provider took the message (the
// ticket resolution notification, the webhook pause email): the chain's log line is not
// an acceptance. Three answers: no provider is configured (nothing is sent, the caller
// goes on without email), a provider accepted it, or every configured provider failed
// (this throws, so the caller's activity retries, as a failed SMTP send always did).
import type { EmailChain, EmailMessage, EmailOutcome } from './types';

export class EmailNotAccepted extends Error {
  constructor(readonly errors: string[]) {
    super(`no email provider accepted the message: ${errors.join('; ') || 'no reason given'}`);
    this.name = 'EmailNotAccepted';
  }
}

/** Whether the chain has a provider besides its log line. */
export const hasEmailProvider = (chain: EmailChain) => chain.providers.some((p) => p !== 'log');

/**
 * The accepting provider's outcome, or null when no provider is configured (nothing was
 * sent). Throws EmailNotAccepted when providers are configured and none accepted.
 */
export async function sendAccepted(chain: EmailChain, message: EmailMessage): Promise<EmailOutcome | null> {
  if (!hasEmailProvider(chain)) return null;
  const outcome = await chain.send(message);
  if (!outcome.delivered) throw new EmailNotAccepted(outcome.errors);
  return outcome;
}

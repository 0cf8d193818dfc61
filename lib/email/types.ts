// The email chain's contract (docs/trial-onboarding.md, "Email"): a transactional
// provider over HTTP first, then SMTP when configured, then a log line. A provider's
// failure (an error answer, a 5xx, a time-out) falls through to the next within the
// same attempt; the outcome says who took the message and what failed before it.

export interface EmailMessage {
  /** one address or several (one message to all of them) */
  to: string | string[];
  subject: string;
  text: string;
  html?: string;
  /** a provider tag / stream label, e.g. `setup-password`, `trial-reminder` */
  tag: string;
  /**
   * What the log fallback may print outside production (the setup link, so a local
   * developer can go on); in production the fallback logs only that mail was not sent.
   */
  logText?: string;
  /** extra headers (`X-Ticket-Id`, …) that let a receiver or a test find the message */
  headers?: Record<string, string>;
}

export type EmailProviderName = 'postmark' | 'smtp' | 'log';

export interface EmailOutcome {
  /** true when a provider (HTTP or SMTP) accepted the message; false: only logged */
  delivered: boolean;
  provider: EmailProviderName;
  /** the accepting provider's message id, when it gives one */
  messageId: string | null;
  /** one line per provider that failed before, e.g. `postmark: 503 Service Unavailable` */
  errors: string[];
}

export interface EmailChain {
  send(message: EmailMessage): Promise<EmailOutcome>;
  /** the providers configured, in order (always ends with `log`) */
  readonly providers: readonly EmailProviderName[];
}

// The email chain (docs/trial-onboarding.md, "Email"): Postmark when configured, then SMTP
// when configured, then a log line. Each provider's failure is one line in `errors` and the
// next one is tried in the same call; the log line always takes the message, so send()
// never throws for a delivery problem.
import type { Config } from '../config';
import type { Logger } from '../logger';
import { createPostmarkClient } from './postmark';
import { createSmtpClient } from './smtp';
import type { EmailChain, EmailMessage, EmailOutcome, EmailProviderName } from './types';

type ChainConfig = Pick<Config, 'env' | 'postmark' | 'smtpUrl' | 'mailFrom' | 'emailTimeoutMs'>;

interface Provider {
  name: Exclude<EmailProviderName, 'log'>;
  send(m: EmailMessage): Promise<{ messageId: string | null }>;
}

export function createEmailChain({ config, logger }: { config: ChainConfig; logger: Logger }): EmailChain & { close(): void } {
  const timeoutMs = config.emailTimeoutMs;
  const from = config.mailFrom;
  const providers: Provider[] = [];
  if (config.postmark) providers.push({ name: 'postmark', ...createPostmarkClient({ ...config.postmark, from, timeoutMs }) });
  const smtp = config.smtpUrl ? createSmtpClient({ url: config.smtpUrl, from, timeoutMs }) : undefined;
  if (smtp) providers.push({ name: 'smtp', send: smtp.send });
  const production = config.env === 'production';

  return {
    providers: [...providers.map((p) => p.name), 'log'],
    async send(m) {
      const errors: string[] = [];
      for (const p of providers) {
        try {
          const { messageId } = await p.send(m);
          return { delivered: true, provider: p.name, messageId, errors } satisfies EmailOutcome;
        } catch (err: any) {
          errors.push(String(err?.message ?? err));
        }
      }
      // The message text is never logged: it may carry a live setup link. Outside
      // production logText (what a local developer needs to go on) is.
      if (production) {
        logger.warn({ to: m.to, subject: m.subject, tag: m.tag, errors }, 'email not delivered (no provider took it); an operator can generate a link on the operator page');
      } else {
        logger.warn({ to: m.to, subject: m.subject, tag: m.tag, errors, logText: m.logText }, 'email not delivered, logged instead (not production)');
      }
      return { delivered: false, provider: 'log', messageId: null, errors };
    },
    close: () => smtp?.close(),
  };
}

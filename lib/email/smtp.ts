// SMTP through nodemailer: one transporter over SMTP_URL whose connection, greeting and
// socket time-outs are the chain's EMAIL_TIMEOUT_MS, so a server that is down or stalls
// fails within the attempt instead of after nodemailer's minutes. (createTransport(url)
// would drop options given beside a URL; SMTPTransport merges them, the URL's query winning.)
import nodemailer from 'nodemailer';
import SMTPTransport from 'nodemailer/lib/smtp-transport';
import type { EmailMessage } from './types';

export interface SmtpOptions {
  url: string;
  from: string;
  timeoutMs: number;
}

export function createSmtpClient(o: SmtpOptions) {
  const transport = nodemailer.createTransport(
    new SMTPTransport({ url: o.url, connectionTimeout: o.timeoutMs, greetingTimeout: o.timeoutMs, socketTimeout: o.timeoutMs }),
  );
  return {
    async send(m: EmailMessage): Promise<{ messageId: string | null }> {
      try {
        const headers = { ...m.headers, 'X-Mail-Tag': m.tag };
        const info = await transport.sendMail({ from: o.from, to: m.to, subject: m.subject, text: m.text, html: m.html, headers });
        return { messageId: info.messageId || null };
      } catch (err: any) {
        const reason = err?.code ? `${err.code} ${err.message}` : String(err?.message ?? err);
        throw new Error(`smtp: ${reason.replace(/\s+/g, ' ').trim().slice(0, 200)}`);
      }
    },
    close: () => transport.close(),
  };
}

import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventually } from './eventually';

export interface ReceivedMail {
  from: string;
  to: string[];
  headers: Record<string, string>;
  raw: string;
}

/** Waits for a message that the test run's SMTP sink (scripts/mail-sink.ts) accepted. */
export function receivedMail(match: (m: ReceivedMail) => boolean, timeoutMs = 15_000): Promise<ReceivedMail> {
  return eventually(() => mailSoFar(match)[0], { timeoutMs, what: 'a matching mail' });
}

/** Every message the test run's SMTP sink has accepted so far that `match` accepts. */
export function mailSoFar(match: (m: ReceivedMail) => boolean): ReceivedMail[] {
  const dir = process.env.MAIL_SINK_DIR ?? '.data/test-mail';
  let files: string[] = [];
  try {
    files = readdirSync(dir);
  } catch {
    return []; // not created yet
  }
  return files.map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as ReceivedMail).filter(match);
}

/** A raw SMTP message's text with its quoted-printable soft breaks and escapes undone. */
export const decodedText = (raw: string) =>
  raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));

/** The set-password link in a received message. */
export function setupLinkIn(mail: Pick<ReceivedMail, 'raw'>): URL {
  const text = decodedText(mail.raw);
  const m = /https?:\/\/\S+\/setup-password\?token=[A-Za-z0-9_-]+/.exec(text);
  if (!m) throw new Error(`no set-password link in the mail:\n${text}`);
  return new URL(m[0]);
}

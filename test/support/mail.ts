import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ReceivedMail {
  from: string;
  to: string[];
  headers: Record<string, string>;
  raw: string;
}

/** Waits for a message that the test run's SMTP sink (scripts/mail-sink.ts) accepted. */
export async function receivedMail(match: (m: ReceivedMail) => boolean, timeoutMs = 15_000): Promise<ReceivedMail> {
  const dir = process.env.MAIL_SINK_DIR ?? '.data/test-mail';
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let files: string[] = [];
    try {
      files = readdirSync(dir);
    } catch {
      /* not created yet */
    }
    for (const f of files) {
      const mail = JSON.parse(readFileSync(join(dir, f), 'utf8')) as ReceivedMail;
      if (match(mail)) return mail;
    }
    if (Date.now() > deadline) throw new Error('no matching mail arrived');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Every message the test run's SMTP sink has accepted so far that `match` accepts. */
export function mailSoFar(match: (m: ReceivedMail) => boolean): ReceivedMail[] {
  const dir = process.env.MAIL_SINK_DIR ?? '.data/test-mail';
  let files: string[] = [];
  try {
    files = readdirSync(dir);
  } catch {
    return [];
  }
  return files.map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as ReceivedMail).filter(match);
}

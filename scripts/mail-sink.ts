// A real SMTP server on loopback that keeps what it receives: every message is written
// as JSON to MAIL_SINK_DIR. `npm start` runs it when no SMTP_URL is configured (so the
// resolution emails of the dev stack can be read in .data/mail/), and `npm test` runs
// it for the end-to-end tests (test/support/mail.ts reads the folder).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { SMTPServer } from 'smtp-server';

const dir = process.env.MAIL_SINK_DIR ?? '.data/test-mail';
// 0 lets the OS pick a free port; the line printed on start says which one
const port = Number(process.env.MAIL_SINK_PORT ?? 0);
mkdirSync(dir, { recursive: true });

function parseHeaders(raw: string): Record<string, string> {
  const head = raw.split(/\r?\n\r?\n/)[0].replace(/\r?\n[ \t]+/g, ' ');
  const headers: Record<string, string> = {};
  for (const line of head.split(/\r?\n/)) {
    const i = line.indexOf(':');
    if (i > 0) headers[line.slice(0, i).trim().toLowerCase()] = line.slice(i + 1).trim();
  }
  return headers;
}

const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const mail = {
        from: session.envelope.mailFrom && session.envelope.mailFrom.address,
        to: session.envelope.rcptTo.map((r) => r.address),
        headers: parseHeaders(raw),
        raw,
        receivedAt: new Date().toISOString(),
      };
      writeFileSync(join(dir, `${Date.now()}-${randomUUID()}.json`), JSON.stringify(mail));
      callback();
    });
  },
});
server.on('error', (err: Error) => {
  console.error(`smtp sink failed: ${err.message}`);
  process.exit(1);
});
server.listen(port, '127.0.0.1', () => {
  const bound = (server.server.address() as { port: number }).port;
  console.log(`smtp sink on 127.0.0.1:${bound} -> ${dir}`);
});
const stop = () => server.close(() => process.exit(0));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

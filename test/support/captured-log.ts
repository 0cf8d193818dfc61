// A logger exactly as production builds it (lib/logger.ts, same redaction), whose lines
// a test reads back.
import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../lib/logger';

export function capturedLogger(level = 'info'): { logger: Logger; text(): string; lines(): any[] } {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      chunks.push(String(chunk));
      done();
    },
  });
  const logger = createLogger({ level, destination });
  const text = () => chunks.join('');
  return { logger, text, lines: () => text().split('\n').filter(Boolean).map((l) => JSON.parse(l)) };
}

import pino, { type DestinationStream } from 'pino';

/**
 * What never reaches a log line, whatever a call site passes (values become
 * "[redacted]"): credentials in request headers, keys, tokens, secrets and passwords
 * under their usual names at the top level and one level down (`{ body: { apiKey } }`),
 * the configuration's keys, and what errors carry from a request or a query (a parse
 * error's raw body, TypeORM's query parameters). Tests: test/lib/logger-redaction.test.ts.
 */
export const REDACT_PATHS = [
  ...['headers', 'req.headers'].flatMap((h) => ['authorization', 'cookie', 'set-cookie', '"x-api-key"', '"x-csrf-token"'].map((k) => `${h}.${k}`)),
  ...['apiKey', 'key', 'secret', 'token', 'accessToken', 'password', 'privateKey', 'private_jwk', 'secretBox', 'signingSecret']
    .flatMap((k) => [k, `*.${k}`]),
  ...['webhookSecretKey', 'jwtPrivateKeyPem', 'smtpUrl'].flatMap((k) => [k, `*.${k}`]),
  'err.body',
  'err.parameters',
  'err.config',
];

export interface LoggerOptions {
  level?: string;
  /** where lines go; default stdout (tests capture them) */
  destination?: DestinationStream;
}

export function createLogger(opts: LoggerOptions = {}) {
  const level = opts.level ?? process.env.LOG_LEVEL ?? (process.env.NODE_ENV === 'test' ? 'warn' : 'info');
  const options = { level, base: undefined, redact: { paths: REDACT_PATHS, censor: '[redacted]' } };
  return opts.destination ? pino(options, opts.destination) : pino(options);
}

export const logger = createLogger();
export type Logger = ReturnType<typeof createLogger>;

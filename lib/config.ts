// One place that reads the environment. Everything else receives a Config.
export interface Config {
  env: string;
  port: number;
  /** interface the API listens on; unset: all interfaces */
  host?: string;
  databaseUrl: string;
  redisUrl: string;
  temporalAddress: string;
  temporalNamespace: string;
  /** set WorkspaceId/TicketStatus/TicketPriority on ticket workflows (the server must know them) */
  temporalSearchAttributes: boolean;
  /** PEM (PKCS#8) RS256 private key; when absent one is generated once and persisted in Postgres. */
  jwtPrivateKeyPem?: string;
  /** nodemailer transport URL, e.g. smtp://127.0.0.1:2525; empty disables email (notificationSent=false). */
  smtpUrl?: string;
  mailFrom: string;
  bodyLimit: string;
  /**
   * Rate-limit overrides by limit name, from RATE_LIMITS="starter=120,scale=100000" (benchmarks,
   * load tests, tests): /v1 plan names today; each API's limit groups (per key, per token,
   * per IP, reads and writes) are named in docs/api-kit.md. The API warns at start when set.
   */
  rateLimits?: Record<string, number>;
  /**
   * Failed authentications (POST /v1/auth/token with a wrong key) allowed per client IP in
   * a rolling 60 s; then that IP gets 429 until the window frees. RATE_LIMITS="auth-failures=N".
   */
  authFailuresPerIp: number;
  /** proxies (addresses or CIDR ranges) whose X-Forwarded-For is believed; TRUSTED_PROXIES="10.0.0.0/8,::1" */
  trustedProxies: string[];
  triageOpenAi?: { baseUrl: string; apiKey?: string; model: string; timeoutMs?: number };
  /**
   * The project's master key (lib/crypto/master-key.ts), which seals every secret kept at
   * rest: `base64:<32 bytes>` or a passphrase of 16+ characters. scripts/ensure.sh generates one
   * per checkout into .data/; production must set it (and keep it: losing it loses every secret).
   */
  webhookSecretKey?: string;
  /**
   * Admit http:// and loopback receivers (127.0.0.1, ::1) for webhook endpoints. Only for
   * tests and local development: it must stay off in production (it opens the SSRF door
   * to services on the API's own host). Private ranges stay refused either way.
   */
  webhookAllowLoopback: boolean;
  /**
   * Where people open the web pages (the set-password link, `{APP_URL}/setup-password?token=…`):
   * APP_URL, default the API itself on localhost.
   */
  appUrl: string;
  /**
   * First-party web origins (marketing site, app) that get CORS answers on the public push
   * endpoints: CORS_ORIGINS="https://example.com,https://app.example.com"; defaults are
   * the usual local development servers (docs/trial-onboarding.md, "CORS").
   */
  corsOrigins: string[];
  /**
   * The transactional email provider (Postmark's email API) tried before SMTP: enabled by
   * POSTMARK_SERVER_TOKEN; POSTMARK_API_URL points it elsewhere (tests, a local fake).
   */
  postmark?: { apiUrl: string; serverToken: string; messageStream: string };
  /** each email provider's time-out in ms before the chain falls through (EMAIL_TIMEOUT_MS) */
  emailTimeoutMs: number;
  /**
   * The settings pages' sessions (docs/settings.md, "Sessions"): idle and absolute lifetime
   * (SESSION_IDLE_MINUTES, default 30; SESSION_ABSOLUTE_HOURS, default 12) and whether the
   * cookie is `Secure` (SESSION_COOKIE_SECURE=on|off; default on outside development).
   */
  webSessions: { idleMs: number; absoluteMs: number; secureCookie: boolean };
}

export const DEFAULT_CORS_ORIGINS = ['http://localhost:3000', 'http://localhost:5173', 'http://127.0.0.1:3000', 'http://127.0.0.1:5173'];

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  return {
    env: env.NODE_ENV ?? 'development',
    port: Number(env.PORT ?? 3000),
    host: env.HOST || undefined,
    databaseUrl: env.DATABASE_URL ?? 'postgres://support:support@127.0.0.1:54329/support',
    redisUrl: env.REDIS_URL ?? 'redis://127.0.0.1:63799',
    temporalAddress: env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233',
    temporalNamespace: env.TEMPORAL_NAMESPACE ?? 'default',
    temporalSearchAttributes: env.TEMPORAL_SEARCH_ATTRIBUTES !== 'off',
    jwtPrivateKeyPem: env.JWT_PRIVATE_KEY || undefined,
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM ?? 'Support <support@example.com>',
    bodyLimit: env.BODY_LIMIT ?? '1mb',
    rateLimits: env.RATE_LIMITS ? parseRateLimits(env.RATE_LIMITS) : undefined,
    authFailuresPerIp: rateLimitGroup(env.RATE_LIMITS, 'auth-failures') ?? DEFAULT_AUTH_FAILURES_PER_IP,
    trustedProxies: (env.TRUSTED_PROXIES ?? '').split(',').map((s) => s.trim()).filter(Boolean),
    triageOpenAi: env.TRIAGE_OPENAI_BASE_URL
      ? {
          baseUrl: env.TRIAGE_OPENAI_BASE_URL,
          apiKey: env.TRIAGE_OPENAI_API_KEY,
          model: env.TRIAGE_OPENAI_MODEL ?? 'gpt-4o-mini',
          timeoutMs: env.TRIAGE_OPENAI_TIMEOUT_MS ? Number(env.TRIAGE_OPENAI_TIMEOUT_MS) : undefined,
        }
      : undefined,
    webhookSecretKey: env.WEBHOOK_SECRET_KEY || undefined,
    webhookAllowLoopback: ['1', 'true', 'on', 'yes'].includes((env.WEBHOOK_ALLOW_LOOPBACK ?? '').toLowerCase()),
    appUrl: (env.APP_URL || `http://localhost:${Number(env.PORT ?? 3000)}`).replace(/\/+$/, ''),
    corsOrigins: env.CORS_ORIGINS !== undefined ? env.CORS_ORIGINS.split(',').map((s) => s.trim().replace(/\/+$/, '')).filter(Boolean) : DEFAULT_CORS_ORIGINS,
    postmark: env.POSTMARK_SERVER_TOKEN
      ? {
          apiUrl: (env.POSTMARK_API_URL || 'https://api.postmarkapp.com').replace(/\/+$/, ''),
          serverToken: env.POSTMARK_SERVER_TOKEN,
          messageStream: env.POSTMARK_MESSAGE_STREAM || 'outbound',
        }
      : undefined,
    emailTimeoutMs: Number(env.EMAIL_TIMEOUT_MS ?? 5000),
    webSessions: {
      idleMs: positive(env.SESSION_IDLE_MINUTES, 30) * 60_000,
      absoluteMs: positive(env.SESSION_ABSOLUTE_HOURS, 12) * 3_600_000,
      secureCookie: onOff(env.SESSION_COOKIE_SECURE) ?? (env.NODE_ENV ?? 'development') !== 'development',
    },
  };
}

/** A positive number from the environment, else the default. */
function positive(raw: string | undefined, fallback: number): number {
  const n = Number(raw);
  return raw !== undefined && raw !== '' && Number.isFinite(n) && n > 0 ? n : fallback;
}

/** on/off switches: true, false, or undefined when unset or unreadable. */
function onOff(raw: string | undefined): boolean | undefined {
  const v = (raw ?? '').toLowerCase();
  if (['1', 'true', 'on', 'yes'].includes(v)) return true;
  if (['0', 'false', 'off', 'no'].includes(v)) return false;
  return undefined;
}

export const DEFAULT_AUTH_FAILURES_PER_IP = 10;

/** One named group of RATE_LIMITS ("auth-failures=3,scale=100000" → 3 for 'auth-failures'). */
function rateLimitGroup(raw: string | undefined, group: string): number | undefined {
  for (const part of (raw ?? '').split(',')) {
    const [name, value] = part.split('=').map((s) => s.trim());
    if (name === group && Number.isInteger(Number(value)) && Number(value) > 0) return Number(value);
  }
  return undefined;
}

function parseRateLimits(raw: string): Config['rateLimits'] {
  const out: NonNullable<Config['rateLimits']> = {};
  for (const part of raw.split(',')) {
    const [name, value] = part.split('=').map((s) => s.trim());
    if (name && Number.isInteger(Number(value)) && Number(value) > 0) out[name] = Number(value);
  }
  return out;
}

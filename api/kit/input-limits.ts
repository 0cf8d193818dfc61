// Input limits, one shared piece of the kit (docs/reliability.md, "Failures and hostile input"):
// the JSON body parser (koa-body) with its size limit, the raw body kept for the
// idempotency hash, and refusals of what PostgreSQL or the workflow payload converter
// would otherwise turn into a 500/503: NUL characters, bodies and percent-escapes that are
// not UTF-8, and JSON nested deeper than MAX_JSON_DEPTH.
import type { IncomingMessage } from 'node:http';
import { Transform } from 'node:stream';
import type { Context, Middleware } from 'koa';
import { koaBody } from 'koa-body';
import { AppError, errors } from './errors';

/** Objects and arrays inside each other: deeper is a 400 (a 10,000-deep `metadata` broke the payload converter). */
export const MAX_JSON_DEPTH = 32;
const UNPARSED = Symbol.for('unparsedBody');

/** The request body exactly as received (text), for the idempotency hash and signature checks. */
export function rawBody(ctx: Context): string {
  return (ctx.state.rawBody as string | undefined) ?? '';
}

/** First problem found in a parsed JSON value, as `[field path, message]`: too deep, or a NUL in a string or key. */
export function jsonProblem(value: unknown): [string, string] | null {
  const stack: Array<[unknown, number, string]> = [[value, 0, '']];
  while (stack.length) {
    const [v, depth, path] = stack.pop()!;
    const field = path || '_';
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return [field, 'must not contain NUL characters'];
    } else if (v !== null && typeof v === 'object') {
      if (depth >= MAX_JSON_DEPTH) return [field, `JSON is nested deeper than ${MAX_JSON_DEPTH} levels`];
      for (const [k, child] of Object.entries(v)) {
        if (k.includes('\u0000')) return [field, 'keys must not contain NUL characters'];
        stack.push([child, depth + 1, path ? `${path}.${k}` : k]);
      }
    }
  }
  return null;
}

/** Strict percent-decoding: invalid UTF-8 (`%FF`) or a NUL (`%00`) is a 400, never a driver error. */
function checkUrlPart(raw: string, what: string): void {
  // Nothing escaped (the common case): only a literal NUL can be wrong, no decoding needed.
  if (!raw.includes('%')) {
    if (raw.includes('\u0000')) throw errors.validation(`${what}: must not contain NUL characters`, { [what]: ['must not contain NUL characters'] });
    return;
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    throw errors.validation(`${what}: not valid percent-encoded UTF-8`, { [what]: ['not valid percent-encoded UTF-8'] });
  }
  if (decoded.includes('\u0000')) throw errors.validation(`${what}: must not contain NUL characters`, { [what]: ['must not contain NUL characters'] });
}

const INVALID_UTF8 = Symbol('invalid UTF-8');

/**
 * The request stream as the body parser reads it, checked byte for byte as UTF-8 on the
 * way (a fatal streaming TextDecoder): the parser would otherwise turn invalid bytes into
 * U+FFFD without a word. Only for identity-encoded bodies (compressed bytes are not text).
 */
function utf8Checked(req: IncomingMessage): Transform & { headers: IncomingMessage['headers'] } {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const invalid = () => Object.assign(new Error('request body is not valid UTF-8'), { status: 400, [INVALID_UTF8]: true });
  const checked = new Transform({
    transform(chunk: Buffer, _enc, done) {
      try {
        decoder.decode(chunk, { stream: true });
        done(null, chunk);
      } catch {
        done(invalid());
      }
    },
    flush(done) {
      try {
        decoder.decode();
        done();
      } catch {
        done(invalid());
      }
    },
  });
  req.on('error', (err) => checked.destroy(err));
  req.pipe(checked);
  return Object.assign(checked, { headers: req.headers });
}

const PARSED_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'];

export interface InputLimitOptions {
  /** largest JSON body, e.g. `1mb` (BODY_LIMIT) */
  bodyLimit: string;
}

/**
 * Parses JSON bodies of POST, PUT and PATCH (koa-body, strict: objects and arrays only),
 * then checks path, query and body. A body over the limit is a 413 and the connection
 * is closed: the rest of an unread (chunked) body would otherwise be taken for the next
 * request on it and leave it hanging.
 */
export function inputLimits(opts: InputLimitOptions): Middleware {
  const parseBody = koaBody({
    json: true,
    urlencoded: false,
    text: false,
    multipart: false,
    jsonLimit: opts.bodyLimit,
    jsonStrict: true,
    includeUnparsed: true,
    parsedMethods: PARSED_METHODS as never,
    onError: (err: any) => {
      const status = err?.status ?? err?.statusCode;
      if (err?.[INVALID_UTF8]) throw errors.validation('body: not valid UTF-8', { body: ['not valid UTF-8'] });
      if (status === 413) throw errors.payloadTooLarge(opts.bodyLimit);
      if (status === 400 || err instanceof SyntaxError) throw errors.validation('Request body is not valid JSON');
      if (status === 415) throw new AppError(415, 'unsupported_media_type', 'Request body must be application/json');
      throw err;
    },
  });
  const checkUrl = (ctx: Context) => {
    checkUrlPart(ctx.path, 'path');
    if (ctx.querystring) {
      for (const pair of ctx.querystring.split('&')) {
        const [name, value = ''] = pair.split('=');
        checkUrlPart(name, 'query');
        checkUrlPart(value, name);
      }
    }
  };
  return (ctx, next) => {
    checkUrl(ctx);
    // GET, HEAD, OPTIONS carry no body to parse or check: straight on (no promise of our own)
    return PARSED_METHODS.includes(ctx.method) ? parseAndCheckBody(ctx, next) : next();
  };

  async function parseAndCheckBody(ctx: Context, next: () => Promise<unknown>) {
    const original = ctx.req;
    const checkUtf8 = !ctx.get('Content-Encoding') && ctx.is('json');
    if (checkUtf8) ctx.req = utf8Checked(original) as unknown as IncomingMessage;
    try {
      await parseBody(ctx, async () => undefined);
    } finally {
      ctx.req = original;
    }
    const body = ctx.request.body as Record<PropertyKey, unknown> | undefined;
    if (body && typeof body === 'object') {
      ctx.state.rawBody = body[UNPARSED];
      delete body[UNPARSED];
      const problem = jsonProblem(body);
      if (problem) throw errors.validation(`${problem[0]}: ${problem[1]}`, { [problem[0]]: [problem[1]] });
    }
    await next();
  }
}

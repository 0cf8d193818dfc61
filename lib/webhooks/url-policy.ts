// Registration-time check of a webhook URL: HTTPS to a public host only (ticketing spec:
// "must be HTTPS and publicly reachable"). This is the friendly early answer; the real
// guard against DNS rebinding is safe-agent.ts, which checks again at connect time.
// Rules and their reasons: docs/webhooks.md ("URL policy").
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { classifyAddress, type AddressClass } from './ip-ranges';

export { classifyAddress, isForbiddenAddress, type AddressClass } from './ip-ranges';

export type ResolvedAddress = { address: string; family: number };
/** Every address a hostname resolves to. Injectable so tests never touch real DNS. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const defaultResolver: Resolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

export interface UrlPolicyOptions {
  /** test switch: allow http/https receivers on loopback (127/8, ::1, localhost). Off by default. */
  allowLoopback?: boolean;
  resolve?: Resolver;
  /** how long to wait for DNS before treating the name as not resolving; default RESOLVE_TIMEOUT_MS */
  resolveTimeoutMs?: number;
}

export type UrlCheck = { ok: true; url: string } | { ok: false; reason: string };

export const MAX_URL_LENGTH = 2048;
/** How long registration waits for DNS before treating the name as not resolving (yet). */
export const RESOLVE_TIMEOUT_MS = 3000;

// Names that only mean something inside a network (cloud metadata, mDNS, search domains).
const INTERNAL_SUFFIXES = ['.localhost', '.local', '.internal', '.localdomain', '.home.arpa', '.lan', '.intranet'];
const LOOPBACK_NAMES = (h: string) => h === 'localhost' || h.endsWith('.localhost');

const fail = (reason: string): UrlCheck => ({ ok: false, reason });
const describe = (cls: AddressClass) => (cls === 'unspecified' ? 'an unspecified' : `a ${cls}`);

export async function checkWebhookUrl(input: string, opts: UrlPolicyOptions = {}): Promise<UrlCheck> {
  const allowLoopback = opts.allowLoopback === true;
  const resolve = opts.resolve ?? defaultResolver;
  if (typeof input !== 'string' || input.length === 0) return fail('url is required');
  if (input.length > MAX_URL_LENGTH) return fail(`url must be at most ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return fail('url is not a valid absolute URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return fail('url must use HTTPS');
  if (url.protocol === 'http:' && !allowLoopback) return fail('url must use HTTPS; plain HTTP is rejected');
  if (url.username || url.password) return fail('url must not contain credentials (user:password@)');

  // WHATWG URL already turned 0x7f.1, 2130706433 and friends into dotted IPv4.
  const host = url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '').toLowerCase();
  if (!host) return fail('url must have a host');
  const literal = isIP(host) !== 0;
  if (!literal) {
    if (LOOPBACK_NAMES(host)) {
      if (!allowLoopback) return fail(`url host ${host} is a loopback name; use a public hostname`);
    } else if (!host.includes('.')) {
      return fail(`url host ${host} is not a fully qualified public hostname`);
    } else if (host === 'metadata.google.internal' || INTERNAL_SUFFIXES.some((s) => host.endsWith(s))) {
      return fail(`url host ${host} is an internal name; use a public hostname`);
    }
  }

  // 443 or an unprivileged port: other well-known ports (22, 25, 80…) are not web receivers.
  if (url.port) {
    const port = Number(url.port);
    if (port !== 443 && port < 1024 && !(allowLoopback && url.protocol === 'http:')) {
      return fail(`url port ${port} is not allowed; use 443 or a port from 1024 to 65535`);
    }
  }

  // A name that does not resolve (yet) is accepted: an endpoint is often registered before
  // its DNS exists, or on a machine without outside DNS. Its attempts fail (unreachable)
  // and are logged until it resolves; the connect-time check in safe-agent.ts stays the
  // guard against whatever it resolves to then.
  let addresses: string[];
  if (literal) addresses = [host];
  else addresses = await resolveOrNothing(resolve, host, opts.resolveTimeoutMs ?? RESOLVE_TIMEOUT_MS);

  // Every address must pass: the connection may use any of them.
  for (const address of addresses) {
    const cls = classifyAddress(address);
    if (cls === null || (cls === 'loopback' && allowLoopback)) continue;
    const what = literal ? `${address} is ${describe(cls)} address` : `${host} resolves to ${address}, ${describe(cls)} address`;
    return fail(`url must be publicly reachable: ${what}`);
  }
  if (url.protocol === 'http:') {
    // plain HTTP only to a receiver known to be on loopback, so a name must resolve here
    const allLoopback = addresses.length > 0 && addresses.every((a) => classifyAddress(a) === 'loopback');
    if (!allLoopback) return fail('url must use HTTPS; plain HTTP is only allowed to loopback test receivers');
  }

  url.hash = ''; // never sent on the wire; dropping it keeps the stored URL honest
  return { ok: true, url: url.href };
}

/**
 * Every address `host` resolves to now; none when it does not resolve (any DNS failure, or
 * no answer within `timeoutMs`: a machine whose resolver is unreachable must not
 * hold the registration request for the OS's retries).
 */
async function resolveOrNothing(resolve: Resolver, host: string, timeoutMs: number): Promise<string[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('DNS timeout')), timeoutMs);
  });
  try {
    return (await Promise.race([resolve(host), timeout])).map((a) => a.address);
  } catch {
    return [];
  } finally {
    clearTimeout(timer);
  }
}

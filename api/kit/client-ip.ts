// Who is the client, the one rule of every API: the socket's address, or — only when that
// address is a proxy the operator listed in TRUSTED_PROXIES — what the proxies say in
// X-Forwarded-For. clientAddress() sets it as `ctx.ip` on every request; per-IP limits
// (failed authentication, push's per-IP groups) and per-address idempotency scopes key
// on `ctx.ip`, so a client cannot pick its own address by sending the header itself
// (contracts: "X-Forwarded-For counts only from TRUSTED_PROXIES").
import { BlockList, isIP } from 'node:net';
import type { Middleware } from 'koa';

/** An IPv4-mapped IPv6 address (`::ffff:1.2.3.4`, what a dual-stack socket reports) as IPv4. */
export function normalizeIp(address: string): string {
  const a = address.trim();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(a);
  return mapped ? mapped[1] : a;
}

export interface TrustedProxies {
  /** the configured entries, for messages */
  entries: string[];
  has(address: string): boolean;
}

/** `10.0.0.5, 10.1.0.0/16, ::1` → a matcher; throws on an entry that is no address or CIDR. */
export function trustedProxies(entries: string[]): TrustedProxies {
  const list = new BlockList();
  for (const raw of entries) {
    const [addr, bits] = raw.split('/');
    const ip = normalizeIp(addr);
    const family = isIP(ip);
    if (!family) throw new Error(`TRUSTED_PROXIES: '${raw}' is not an IP address or CIDR range`);
    const type = family === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(ip, type);
    else {
      const prefix = Number(bits);
      if (!Number.isInteger(prefix) || prefix < 0 || prefix > (family === 6 ? 128 : 32)) {
        throw new Error(`TRUSTED_PROXIES: '${raw}' has an invalid prefix length`);
      }
      list.addSubnet(ip, prefix, type);
    }
  }
  return {
    entries,
    has(address) {
      const ip = normalizeIp(address);
      const family = isIP(ip);
      return family !== 0 && list.check(ip, family === 6 ? 'ipv6' : 'ipv4');
    },
  };
}

/**
 * The client address of a request that arrived from `socketAddress`. X-Forwarded-For is
 * read right to left (each proxy appends the address it saw): the first hop that is not
 * a trusted proxy is the client; anything left of it is the client's own claim and is
 * ignored. A malformed hop ends the walk at the last address a trusted proxy vouched for.
 */
export function clientIp(socketAddress: string | undefined, forwardedFor: string | undefined, trusted: TrustedProxies): string {
  let current = normalizeIp(socketAddress ?? '');
  if (!forwardedFor || !trusted.has(current)) return current;
  const hops = forwardedFor.split(',').map(normalizeIp).filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!isIP(hops[i])) return current;
    current = hops[i];
    if (!trusted.has(current)) return current;
  }
  return current;
}

/**
 * Sets `ctx.ip` to the client address (clientIp above): the socket address, or what
 * proxies listed in TRUSTED_PROXIES forwarded. Koa's own `app.proxy` would believe any
 * X-Forwarded-For; this one believes only the listed proxies.
 */
export function clientAddress(trusted: TrustedProxies): Middleware {
  // not async: one promise less per request (every request passes here)
  return (ctx, next) => {
    ctx.request.ip = clientIp(ctx.req.socket.remoteAddress, ctx.get('X-Forwarded-For') || undefined, trusted);
    return next();
  };
}

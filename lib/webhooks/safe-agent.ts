// Outbound agents for webhook deliveries that refuse forbidden addresses at connect time.
// Registration (url-policy.ts) checked the name once; DNS can answer differently a minute
// later (rebinding), so every connection's own lookup is checked here again.
//
// Use with node:http/node:https request() only: fetch() (undici) ignores these agents.
// Neither follows redirects, which is what we want: a 3xx is a failed attempt.
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import type { Duplex } from 'node:stream';
import { classifyAddress, type AddressClass } from './ip-ranges';
import { defaultResolver, type Resolver } from './url-policy';

export interface SafeAgentOptions {
  /** test switch: permit loopback receivers (127/8, ::1). Off by default. */
  allowLoopback?: boolean;
  /** injectable for tests; default: the OS resolver (dns.lookup, all addresses) */
  resolve?: Resolver;
  keepAlive?: boolean;
}

export class ForbiddenAddressError extends Error {
  readonly code = 'ERR_WEBHOOK_FORBIDDEN_ADDRESS';
  constructor(
    readonly host: string,
    readonly address: string,
    readonly addressClass: AddressClass | 'unix socket',
  ) {
    super(`refusing to connect to ${host}${host === address ? '' : ` (${address})`}: ${addressClass} address`);
    this.name = 'ForbiddenAddressError';
  }
}

function forbidden(host: string, address: string, allowLoopback: boolean): ForbiddenAddressError | null {
  const cls = classifyAddress(address);
  if (cls === null || (cls === 'loopback' && allowLoopback)) return null;
  return new ForbiddenAddressError(host, address, cls);
}

/** A net lookup that resolves, refuses if ANY answer is forbidden, then answers net's way. */
export function guardedLookup(resolve: Resolver, allowLoopback: boolean): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (answers) => {
        for (const a of answers) {
          const err = forbidden(hostname, a.address, allowLoopback);
          if (err) return callback(err, '');
        }
        const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
        const usable = family ? answers.filter((a) => a.family === family) : answers;
        if (usable.length === 0) {
          const err: NodeJS.ErrnoException = Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
          return callback(err, '');
        }
        // Node 20 asks for all addresses when autoSelectFamily (happy eyeballs) is on.
        if (options.all) return callback(null, usable);
        callback(null, usable[0].address, usable[0].family);
      },
      (err: NodeJS.ErrnoException) => callback(err, ''),
    );
  };
}

/** IP literals and unix sockets never reach lookup(), so they are checked before connecting. */
function refuseBeforeConnect(options: http.ClientRequestArgs, allowLoopback: boolean): Error | null {
  if (options.socketPath) return new ForbiddenAddressError(options.socketPath, options.socketPath, 'unix socket');
  const host = (options.host ?? options.hostname ?? 'localhost').replace(/^\[|\]$/g, '');
  return isIP(host) ? forbidden(host, host, allowLoopback) : null;
}

type CreateConnection = (options: http.ClientRequestArgs, cb?: (err: Error | null, s: Duplex) => void) => Duplex | null | undefined;

function guard<A extends http.Agent>(agent: A, allowLoopback: boolean): A {
  const original = agent.createConnection.bind(agent) as CreateConnection;
  (agent as { createConnection: CreateConnection }).createConnection = (options, cb) => {
    const err = refuseBeforeConnect(options, allowLoopback);
    if (!err) return original(options, cb);
    cb?.(err, undefined as unknown as Duplex);
    return undefined;
  };
  return agent;
}

function agentOptions(opts: SafeAgentOptions): http.AgentOptions {
  const lookup = guardedLookup(opts.resolve ?? defaultResolver, opts.allowLoopback === true);
  // Agent options are merged into every connect call, so net.connect uses this lookup.
  return { keepAlive: opts.keepAlive ?? false, lookup } as http.AgentOptions;
}

export function createSafeHttpsAgent(opts: SafeAgentOptions = {}): https.Agent {
  return guard(new https.Agent(agentOptions(opts)), opts.allowLoopback === true);
}

/** Plain HTTP exists only for loopback test receivers; the URL policy refuses it otherwise. */
export function createSafeHttpAgent(opts: SafeAgentOptions = {}): http.Agent {
  return guard(new http.Agent(agentOptions(opts)), opts.allowLoopback === true);
}

/** The agent matching a URL's scheme. */
export function safeAgentFor(url: string | URL, agents: { http: http.Agent; https: https.Agent }): http.Agent {
  return new URL(url).protocol === 'http:' ? agents.http : agents.https;
}

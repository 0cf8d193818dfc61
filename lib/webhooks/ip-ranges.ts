// Which IP addresses a webhook may never reach: everything that is not ordinary public
// unicast (IANA special-purpose registries). Used at registration (url-policy.ts) and
// again at connect time (safe-agent.ts), so both apply the very same list.
import { isIPv4, isIPv6 } from 'node:net';

export type AddressClass =
  | 'loopback'
  | 'private'
  | 'shared (CGNAT)'
  | 'link-local'
  | 'cloud metadata'
  | 'unique-local'
  | 'unspecified'
  | 'multicast'
  | 'reserved';

type Range = { prefix: bigint; bits: number; cls: AddressClass };

const V4: Array<[string, number, AddressClass]> = [
  ['169.254.169.254', 32, 'cloud metadata'], // before link-local so the message names it
  ['0.0.0.0', 32, 'unspecified'],
  ['0.0.0.0', 8, 'reserved'], // "this network"
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared (CGNAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'], // IETF protocol assignments
  ['192.0.2.0', 24, 'reserved'], // documentation
  ['192.88.99.0', 24, 'reserved'], // 6to4 relay anycast
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'], // benchmarking
  ['198.51.100.0', 24, 'reserved'],
  ['203.0.113.0', 24, 'reserved'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved'], // includes 255.255.255.255
];

const V6: Array<[string, number, AddressClass]> = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['::', 96, 'reserved'], // deprecated IPv4-compatible
  ['100::', 64, 'reserved'], // discard-only
  ['2001::', 32, 'reserved'], // Teredo: hides an arbitrary IPv4 behind it
  ['2001:db8::', 32, 'reserved'], // documentation
  ['fd00:ec2::254', 128, 'cloud metadata'], // AWS IMDS over IPv6
  ['fc00::', 7, 'unique-local'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'reserved'], // deprecated site-local
  ['ff00::', 8, 'multicast'],
];

function v4ToBig(ip: string): bigint {
  return ip.split('.').reduce((acc, o) => (acc << 8n) | BigInt(Number(o)), 0n);
}

/** 128-bit value of an IPv6 address (zone id dropped, dotted IPv4 tail accepted). */
function v6ToBig(ip: string): bigint {
  let s = ip.split('%')[0];
  const dotted = s.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) {
    const v = Number(v4ToBig(dotted[1]));
    s = s.slice(0, -dotted[1].length) + `${(v >>> 16).toString(16)}:${(v & 0xffff).toString(16)}`;
  }
  const [head, tail] = s.includes('::') ? s.split('::') : [s, undefined];
  const h = head ? head.split(':') : [];
  const t = tail ? tail.split(':') : [];
  const words = tail === undefined ? h : [...h, ...Array(8 - h.length - t.length).fill('0'), ...t];
  return words.reduce((acc, w) => (acc << 16n) | BigInt(parseInt(w, 16)), 0n);
}

const compile = (list: Array<[string, number, AddressClass]>, width: number, toBig: (s: string) => bigint): Range[] =>
  list.map(([ip, bits, cls]) => ({ prefix: toBig(ip) >> BigInt(width - bits), bits, cls }));
const V4_RANGES = compile(V4, 32, v4ToBig);
const V6_RANGES = compile(V6, 128, v6ToBig);

const match = (value: bigint, width: number, ranges: Range[]): AddressClass | null =>
  ranges.find((r) => value >> BigInt(width - r.bits) === r.prefix)?.cls ?? null;

/** The IPv4 address an IPv6 address carries and routes to, if any. */
function embeddedV4(v: bigint): bigint | null {
  const low32 = v & 0xffffffffn;
  if (v >> 32n === 0xffffn) return low32; // ::ffff:a.b.c.d (IPv4-mapped)
  if (v >> 32n === 0x64ff9b0000000000000000n) return low32; // 64:ff9b::/96 (NAT64)
  if (v >> 112n === 0x2002n) return (v >> 80n) & 0xffffffffn; // 2002::/16 (6to4)
  return null;
}

/**
 * Why `ip` is forbidden, or null when it is ordinary public unicast. Anything that is not a
 * valid IP address is 'reserved' (fail closed).
 */
export function classifyAddress(ip: string): AddressClass | null {
  const bare = ip.startsWith('[') && ip.endsWith(']') ? ip.slice(1, -1) : ip;
  if (isIPv4(bare)) return match(v4ToBig(bare), 32, V4_RANGES);
  if (!isIPv6(bare)) return 'reserved';
  const v = v6ToBig(bare);
  const v4 = embeddedV4(v);
  if (v4 !== null) return match(v4, 32, V4_RANGES);
  return match(v, 128, V6_RANGES);
}

export function isForbiddenAddress(ip: string, opts: { allowLoopback?: boolean } = {}): boolean {
  const cls = classifyAddress(ip);
  return cls !== null && !(cls === 'loopback' && opts.allowLoopback);
}

import { isIP } from 'node:net';

/**
 * What kind of address an extension call would connect to. Only `public` addresses may be called
 * in AWS; local mode adds `loopback`. Everything else — private networks, link-local (which holds
 * the instance metadata service), carrier-grade NAT, unique-local IPv6, multicast, documentation
 * and reserved ranges — is refused, so a binding cannot make the service reach into its own
 * network (SSRF).
 */
export type AddressClass =
  | 'public'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'cgnat'
  | 'unique-local'
  | 'metadata'
  | 'multicast'
  | 'broadcast'
  | 'documentation'
  | 'benchmarking'
  | 'reserved'
  | 'invalid';

interface Range<T> {
  network: T;
  bits: number;
  kind: AddressClass;
}

const v4 = (cidr: string, kind: AddressClass): Range<number> => {
  const [network, bits] = cidr.split('/');
  return { network: parseIPv4(network!)!, bits: Number(bits), kind };
};
const v6 = (cidr: string, kind: AddressClass): Range<bigint> => {
  const [network, bits] = cidr.split('/');
  return { network: parseIPv6(network!)!, bits: Number(bits), kind };
};

/** Special-purpose IPv4 ranges (RFC 6890 and the IANA registry); the first match decides. */
const IPV4_RANGES: Range<number>[] = [
  v4('169.254.169.254/32', 'metadata'), // EC2/ECS/Lambda instance metadata
  v4('0.0.0.0/8', 'unspecified'),
  v4('10.0.0.0/8', 'private'),
  v4('100.64.0.0/10', 'cgnat'),
  v4('127.0.0.0/8', 'loopback'),
  v4('169.254.0.0/16', 'link-local'),
  v4('172.16.0.0/12', 'private'),
  v4('192.0.0.0/24', 'reserved'), // IETF protocol assignments
  v4('192.0.2.0/24', 'documentation'),
  v4('192.88.99.0/24', 'reserved'), // 6to4 relay anycast (deprecated)
  v4('192.168.0.0/16', 'private'),
  v4('198.18.0.0/15', 'benchmarking'),
  v4('198.51.100.0/24', 'documentation'),
  v4('203.0.113.0/24', 'documentation'),
  v4('224.0.0.0/4', 'multicast'),
  v4('255.255.255.255/32', 'broadcast'),
  v4('240.0.0.0/4', 'reserved'),
];

/** Special-purpose IPv6 ranges; addresses embedding an IPv4 address are classified by it. */
const IPV6_RANGES: Range<bigint>[] = [
  v6('fd00:ec2::254/128', 'metadata'), // EC2 instance metadata over IPv6
  v6('::/128', 'unspecified'),
  v6('::1/128', 'loopback'),
  v6('::/96', 'reserved'), // IPv4-compatible (deprecated)
  v6('64:ff9b:1::/48', 'private'), // local-use NAT64
  v6('100::/64', 'reserved'), // discard-only
  v6('2001:db8::/32', 'documentation'),
  v6('2001::/23', 'reserved'), // IETF protocol assignments (Teredo, ORCHID, benchmarking)
  v6('3fff::/20', 'documentation'),
  v6('fc00::/7', 'unique-local'),
  v6('fe80::/10', 'link-local'),
  v6('fec0::/10', 'private'), // site-local (deprecated)
  v6('ff00::/8', 'multicast'),
];

/** IPv6 prefixes that carry an IPv4 address, and where it sits. */
const IPV4_MAPPED = v6('::ffff:0:0/96', 'reserved');
const NAT64 = v6('64:ff9b::/96', 'reserved');
const SIX_TO_FOUR = v6('2002::/16', 'reserved');
/** Global unicast: everything outside it is not a public address. */
const GLOBAL_UNICAST = v6('2000::/3', 'public');

/** Classifies an IPv4 or IPv6 address in its textual form (an IPv6 zone id is ignored). */
export function classifyAddress(address: string): AddressClass {
  const text = address.replace(/^\[(.*)\]$/, '$1');
  const ipv4 = parseIPv4(text);
  if (ipv4 !== undefined) return classifyIPv4(ipv4);
  const ipv6 = parseIPv6(text);
  if (ipv6 !== undefined) return classifyIPv6(ipv6);
  return 'invalid';
}

/** Whether a call may connect to an address of this class. */
export function isAllowedAddressClass(kind: AddressClass, options: { localMode: boolean }): boolean {
  return kind === 'public' || (options.localMode && kind === 'loopback');
}

function classifyIPv4(address: number): AddressClass {
  return IPV4_RANGES.find((range) => inRange4(address, range))?.kind ?? 'public';
}

function classifyIPv6(address: bigint): AddressClass {
  if (inRange6(address, IPV4_MAPPED)) return classifyIPv4(Number(address & 0xffff_ffffn));
  if (inRange6(address, NAT64)) return classifyIPv4(Number(address & 0xffff_ffffn));
  if (inRange6(address, SIX_TO_FOUR)) return classifyIPv4(Number((address >> 80n) & 0xffff_ffffn));
  const special = IPV6_RANGES.find((range) => inRange6(address, range));
  if (special) return special.kind;
  return inRange6(address, GLOBAL_UNICAST) ? 'public' : 'reserved';
}

function inRange4(address: number, range: Range<number>): boolean {
  if (range.bits === 0) return true;
  const shift = 32 - range.bits;
  return address >>> shift === range.network >>> shift;
}

function inRange6(address: bigint, range: Range<bigint>): boolean {
  const shift = BigInt(128 - range.bits);
  return address >> shift === range.network >> shift;
}

/** Strict dotted-quad decimal (no octal, hex or shortened forms); undefined otherwise. */
export function parseIPv4(text: string): number | undefined {
  const parts = text.split('.');
  if (parts.length !== 4) return undefined;
  let value = 0;
  for (const part of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(part)) return undefined;
    const octet = Number(part);
    if (octet > 255) return undefined;
    value = value * 256 + octet;
  }
  return value;
}

/** An IPv6 address (with `::`, an embedded dotted quad, an optional zone id) as a 128-bit integer. */
export function parseIPv6(text: string): bigint | undefined {
  const address = text.replace(/%.*$/, '');
  if (isIP(address) !== 6) return undefined;
  let body = address;
  const tail: number[] = [];
  if (body.includes('.')) {
    const at = body.lastIndexOf(':');
    const embedded = parseIPv4(body.slice(at + 1));
    if (embedded === undefined) return undefined;
    tail.push(embedded >>> 16, embedded & 0xffff);
    body = body.slice(0, at + 1);
    if (!body.endsWith('::')) body = body.slice(0, -1);
  }
  const halves = body.split('::');
  if (halves.length > 2) return undefined;
  const groupsOf = (part: string) =>
    part === '' ? [] : part.split(':').map((group) => (/^[0-9a-f]{1,4}$/i.test(group) ? parseInt(group, 16) : Number.NaN));
  const head = groupsOf(halves[0]!);
  const rest = halves.length === 2 ? groupsOf(halves[1]!) : [];
  const fill = halves.length === 2 ? 8 - head.length - rest.length - tail.length : 0;
  if (fill < 0) return undefined;
  const groups = [...head, ...Array<number>(fill).fill(0), ...rest, ...tail];
  if (groups.length !== 8 || groups.some(Number.isNaN)) return undefined;
  return groups.reduce((value, group) => (value << 16n) | BigInt(group), 0n);
}

/** Strips the brackets of an IPv6 URL host (`[::1]` → `::1`). */
export const unbracket = (hostname: string) => hostname.replace(/^\[(.*)\]$/, '$1');

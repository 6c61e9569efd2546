import ipaddr from 'ipaddr.js';
import { isIP } from 'node:net';

/**
 * What kind of address an extension call would connect to: `public` (unicast; for IPv6 global
 * unicast), `metadata` (the instance metadata service), `invalid` (not an address in its plain
 * form), or ipaddr.js's name of its special range (`loopback`, `private`, `linkLocal`,
 * `carrierGradeNat`, `uniqueLocal`, `multicast`, `reserved`, `teredo`, …). Only `public` may be
 * called in AWS; local mode adds `loopback`. Everything else is refused, so a binding cannot make the
 * service reach into its own network (SSRF).
 */
export type AddressClass = string;

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** EC2/ECS/Lambda instance metadata, over IPv4 and IPv6. */
const METADATA = [ipaddr.parseCIDR('169.254.169.254/32'), ipaddr.parseCIDR('fd00:ec2::254/128')];
/** NAT64's well-known prefix: the IPv4 address is the last 32 bits (its local-use /48 stays refused as `rfc6052`). */
const NAT64 = ipaddr.parseCIDR('64:ff9b::/96');
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

const inRange = (address: Address, [network, bits]: [Address, number]) => address.kind() === network.kind() && address.match(network, bits);

/** Classifies an IPv4 or IPv6 address in its textual form (an IPv6 zone id is ignored). */
export function classifyAddress(text: string): AddressClass {
  const plain = unbracket(text);
  // Node's check first: strict dotted quads (ipaddr.js also reads octal, hex and shortened forms).
  if (!isIP(plain)) return 'invalid';
  // `::a.b.c.d` is IPv4-compatible (deprecated), which ipaddr.js reads as IPv4-mapped.
  if (/^::\d+\.\d+\.\d+\.\d+$/.test(plain)) return 'reserved';
  const address = embeddedIPv4(ipaddr.process(plain));
  if (METADATA.some((range) => inRange(address, range))) return 'metadata';
  const kind = address.range();
  if (kind !== 'unicast') return kind;
  return address.kind() === 'ipv4' || inRange(address, GLOBAL_UNICAST) ? 'public' : 'reserved';
}

/** An IPv6 address that carries an IPv4 address (NAT64, 6to4; `process` unwrapped the mapped form) is judged by it. */
function embeddedIPv4(address: Address): Address {
  if (address.kind() === 'ipv4') return address;
  const bytes = address.toByteArray();
  if (inRange(address, NAT64)) return new ipaddr.IPv4(bytes.slice(12));
  if (address.range() === '6to4') return new ipaddr.IPv4(bytes.slice(2, 6));
  return address;
}

/** Whether a call may connect to an address of this class. */
export function isAllowedAddressClass(kind: AddressClass, options: { localMode: boolean }): boolean {
  return kind === 'public' || (options.localMode && kind === 'loopback');
}

/** Strips the brackets of an IPv6 URL host (`[::1]` → `::1`). */
export const unbracket = (hostname: string) => hostname.replace(/^\[(.*)\]$/, '$1');

import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { classifyAddress, isAllowedAddressClass, unbracket } from './address-policy';
import { ExtensionTargetRefusedError, ExtensionUnreachableError } from './errors';

export interface TargetPolicy {
  /** Local mode (`LOCAL_MODE=true`): http and https to loopback are allowed too. */
  localMode: boolean;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to every address it has (the system resolver by default). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));

export interface CheckedTarget {
  url: URL;
  /** The host name without IPv6 brackets: the TLS server name and the Host header's name. */
  hostname: string;
  /** The checked address the connection must go to (never resolved again). */
  pinned: ResolvedAddress;
}

/**
 * Decides whether an extension URL may be called and where to connect:
 *
 * - in AWS only https; in local mode https, and http to a loopback address;
 * - the host is resolved once, and every address it resolves to must be public (local mode:
 *   public or loopback; for http, loopback only) — one refused address refuses the target;
 * - the connection then goes to the checked address (see http-forwarder.ts), so a second DNS
 *   answer (DNS rebinding) cannot redirect it.
 */
export async function checkTarget(url: URL, policy: TargetPolicy, resolve: Resolver = systemResolver): Promise<CheckedTarget> {
  const scheme = url.protocol;
  if (scheme !== 'https:' && !(scheme === 'http:' && policy.localMode)) {
    throw new ExtensionTargetRefusedError(
      policy.localMode ? 'The extension URL must use https, or http on a loopback address.' : 'The extension URL must use https.',
    );
  }
  if (url.username || url.password) throw new ExtensionTargetRefusedError('The extension URL must not carry credentials.');

  const hostname = unbracket(url.hostname);
  let addresses: ResolvedAddress[];
  if (isIP(hostname)) {
    addresses = [{ address: hostname, family: isIP(hostname) === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await resolve(hostname);
    } catch (error) {
      throw new ExtensionUnreachableError(`The extension host ${hostname} cannot be resolved (${(error as NodeJS.ErrnoException).code ?? 'error'}).`);
    }
    if (addresses.length === 0) throw new ExtensionUnreachableError(`The extension host ${hostname} has no address.`);
  }

  for (const { address } of addresses) {
    const kind = classifyAddress(address);
    if (!isAllowedAddressClass(kind, policy)) {
      throw new ExtensionTargetRefusedError(`The extension host ${hostname} resolves to a ${kind} address, which may not be called.`, address);
    }
    if (scheme === 'http:' && kind !== 'loopback') {
      throw new ExtensionTargetRefusedError('Plain http is allowed only to loopback addresses, in local mode.', address);
    }
  }
  return { url, hostname, pinned: addresses[0]! };
}

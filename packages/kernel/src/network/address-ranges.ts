import ipaddr from 'ipaddr.js';
import Joi from 'joi';

export type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;

/**
 * An address as one form: an IPv4 client of a dual-stack socket (`::ffff:10.0.0.1`) is
 * `10.0.0.1`, so lists, limits, peer tables and logs never see one host under two names.
 * Undefined when the text is no address.
 */
export function parseAddress(text: string): IpAddress | undefined {
  const trimmed = text.trim();
  // ipaddr.js also reads `127.1` and `2130706433` as IPv4; no socket or peer list says those.
  const valid = ipaddr.IPv4.isValidFourPartDecimal(trimmed) || ipaddr.IPv6.isValid(trimmed);
  return valid ? ipaddr.process(trimmed) : undefined;
}

/** `parseAddress`'s form as text (RFC 5952 for IPv6); text that is no address, unchanged. */
export function canonicalAddress(text: string): string {
  return parseAddress(text)?.toString() ?? text;
}

/**
 * A list of IPs and CIDR ranges (IPv4, IPv6, IPv4-mapped IPv6), as operators write them in
 * whitelists, exemptions and trusted proxies: `127.0.0.1`, `10.0.0.0/8`, `::1`, `fc00::/7`.
 */
export class AddressRanges {
  readonly #ranges: readonly [IpAddress, number][];

  /** Throws on an entry that is no IP or CIDR (`ipOrRange` refuses those in a config first). */
  constructor(entries: readonly string[]) {
    this.#ranges = entries.map(toRange);
  }

  get size(): number {
    return this.#ranges.length;
  }

  /** Whether `ip` (text or parsed) is in one of the ranges; text that is no address is not. */
  has(ip: string | IpAddress): boolean {
    if (this.#ranges.length === 0) return false;
    const address = typeof ip === 'string' ? parseAddress(ip) : ip;
    if (address === undefined) return false;
    return this.#ranges.some(
      ([network, bits]) => network.kind() === address.kind() && address.match(network, bits),
    );
  }
}

/** A config value that `AddressRanges` takes: an IP, or a CIDR range. */
export const ipOrRange = Joi.string().ip({ cidr: 'optional' });

function toRange(entry: string): [IpAddress, number] {
  const single = entry.includes('/') ? undefined : parseAddress(entry);
  if (!entry.includes('/') && single === undefined) {
    throw new Error(`"${entry}" is no IP address or CIDR range`);
  }
  const [network, bits] = single
    ? [single, single.kind() === 'ipv6' ? 128 : 32]
    : ipaddr.parseCIDR(entry.trim());
  // `::ffff:10.0.0.0/104` is `10.0.0.0/8`: addresses are compared in their IPv4 form.
  if (network.kind() === 'ipv6' && (network as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
    return [(network as ipaddr.IPv6).toIPv4Address(), bits - 96];
  }
  return [network, bits];
}

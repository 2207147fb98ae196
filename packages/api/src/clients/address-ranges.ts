import ipaddr from 'ipaddr.js';

export type IpAddress = ipaddr.IPv4 | ipaddr.IPv6;

/**
 * An address as one form: an IPv4 client of a dual-stack socket (`::ffff:10.0.0.1`) is
 * `10.0.0.1`, so lists, limits and logs never see one client under two names. Undefined when
 * the text is no address.
 */
export function parseAddress(text: string): IpAddress | undefined {
  const trimmed = text.trim();
  // ipaddr.js also reads `127.1` and `2130706433` as IPv4; a header holding those is no hop.
  const valid = ipaddr.IPv4.isValidFourPartDecimal(trimmed) || ipaddr.IPv6.isValid(trimmed);
  return valid ? ipaddr.process(trimmed) : undefined;
}

/** A list of IPs and CIDR ranges (IPv4, IPv6, IPv4-mapped IPv6), as the API's options hold them. */
export class AddressRanges {
  readonly #ranges: readonly [IpAddress, number][];

  /** Throws on an entry that is no IP or CIDR (the config schema refuses those first). */
  constructor(entries: readonly string[]) {
    this.#ranges = entries.map(toRange);
  }

  /** Whether `ip` (text or parsed) is in one of the ranges; text that is no address is not. */
  has(ip: string | IpAddress): boolean {
    const address = typeof ip === 'string' ? parseAddress(ip) : ip;
    if (address === undefined) return false;
    return this.#ranges.some(
      ([network, bits]) => network.kind() === address.kind() && address.match(network, bits),
    );
  }
}

function toRange(entry: string): [IpAddress, number] {
  const single = entry.includes('/') ? undefined : ipaddr.parse(entry);
  const [network, bits] = single
    ? [single, single.kind() === 'ipv6' ? 128 : 32]
    : ipaddr.parseCIDR(entry);
  // `::ffff:10.0.0.0/104` is `10.0.0.0/8`: addresses are compared in their IPv4 form.
  if (network.kind() === 'ipv6' && (network as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
    return [(network as ipaddr.IPv6).toIPv4Address(), bits - 96];
  }
  return [network, bits];
}

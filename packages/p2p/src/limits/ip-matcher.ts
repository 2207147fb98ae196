import { BlockList, isIPv6 } from 'node:net';

/** `::ffff:10.0.0.1` and `10.0.0.1` are one host: compare and count by the IPv4 form. */
export function normaliseIp(ip: string): string {
  return ip.startsWith('::ffff:') && ip.includes('.') ? ip.slice(7) : ip;
}

/** Matches IPs against a list of addresses and CIDR ranges (`127.0.0.1`, `10.0.0.0/8`, `::1`). */
export class IpMatcher {
  private readonly list = new BlockList();

  constructor(entries: readonly string[]) {
    for (const entry of entries) {
      const [address, prefix] = entry.split('/') as [string, string | undefined];
      const family = isIPv6(address) ? 'ipv6' : 'ipv4';
      if (prefix === undefined) this.list.addAddress(address, family);
      else this.list.addSubnet(address, Number(prefix), family);
    }
  }

  matches(ip: string): boolean {
    const address = normaliseIp(ip);
    return this.list.check(address, isIPv6(address) ? 'ipv6' : 'ipv4');
  }
}

/** Loopback, private, link-local and unspecified ranges: not addresses to learn from strangers. */
export const LOCAL_RANGES: readonly string[] = [
  '0.0.0.0/8',
  '10.0.0.0/8',
  '100.64.0.0/10',
  '127.0.0.0/8',
  '169.254.0.0/16',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '::/128',
  '::1/128',
  'fc00::/7',
  'fe80::/10',
];

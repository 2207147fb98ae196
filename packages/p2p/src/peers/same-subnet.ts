import { isIPv6 } from 'node:net';
import { canonicalAddress } from '@lni/kernel';

/**
 * The IPv4 /24 an address belongs to (`10.0.0` for 10.0.0.7), by which ARK limits how many
 * peers may share one network (`maxSameSubnetPeers`). IPv6 addresses are not limited (ARK
 * counts only IPv4), nor is loopback: ARK never takes a loopback peer, while LNI's local test
 * networks run every node on 127.0.0.1.
 */
export function subnetOf(ip: string): string | undefined {
  const address = canonicalAddress(ip);
  if (isIPv6(address) || address.startsWith('127.')) return undefined;
  return address.split('.').slice(0, 3).join('.');
}

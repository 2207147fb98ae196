import type { PeerAddress } from '../contracts/chain.js';

/**
 * A peer as log lines name it: `ip:port` (IPv6 in brackets), since one IP may run several
 * nodes (every node of a local test network is 127.0.0.1).
 */
export function peerName({ ip, port }: PeerAddress): string {
  if (port === undefined) return ip;
  return ip.includes(':') ? `[${ip}]:${port}` : `${ip}:${port}`;
}

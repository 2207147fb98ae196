import { type Logger, AddressRanges } from '@lni/kernel';
import type { PeerAddressEntry } from '../wire/messages.js';
import { peerKey } from './peer.js';
import type { PeerNetwork } from './peer-network.js';
import type { PeerRepository } from './peer-repository.js';

export interface PeerDiscoveryDependencies {
  readonly network: PeerNetwork;
  readonly peers: PeerRepository;
  readonly logger: Logger;
  readonly acceptLocalPeers: boolean;
}

/** ARK asks 8 random peers for their peers each round and takes up to 50 from each. */
const PEERS_ASKED = 8;
const TAKEN_PER_PEER = 50;

/** Loopback, private, link-local and unspecified ranges: not addresses to learn from strangers. */
const LOCAL_RANGES = new AddressRanges([
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
]);

/** Finds peers through the peers our peers know, up to the cap, and refreshes known ones. */
export class PeerDiscovery {
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: PeerDiscoveryDependencies) {}

  /** Asks some connected peers for their peers and dials new ones; returns how many joined. */
  async discover(): Promise<number> {
    const { network, peers, logger } = this.deps;
    const asked = shuffle(network.connected()).slice(0, PEERS_ASKED);
    const candidates = new Map<string, PeerAddressEntry>();
    await Promise.all(
      asked.map(async (client) => {
        try {
          for (const entry of shuffle([...(await client.peers())]).slice(0, TAKEN_PER_PEER)) {
            // The reply's addresses are in one form (the codec refuses what is no address).
            candidates.set(peerKey(entry.ip, entry.port), entry);
          }
        } catch (error) {
          network.reportFailure(client, error);
        }
      }),
    );
    let added = 0;
    for (const { ip, port } of candidates.values()) {
      if (peers.isFull) break;
      if (port === 0 || peers.has(ip, port) || network.isSelf(ip, port)) continue;
      // A stranger listing 127.0.0.1 or 10.x would make us dial into our own network.
      if (!this.deps.acceptLocalPeers && LOCAL_RANGES.has(ip)) continue;
      try {
        if ((await network.connect(ip, port)) === 'added') added += 1;
      } catch (error) {
        logger.debug({ ip, port, err: error }, 'Discovered peer unreachable');
      }
    }
    return added;
  }

  /** Refreshes known peers and discovers new ones every `intervalSeconds` (0: never). */
  start(intervalSeconds: number): void {
    this.stop();
    if (intervalSeconds <= 0) return;
    this.timer = setInterval(() => void this.round(), intervalSeconds * 1000);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private async round(): Promise<void> {
    try {
      await this.deps.network.refresh();
      const added = await this.discover();
      if (added > 0) {
        this.deps.logger.info({ added, peers: this.deps.peers.size }, 'Peers discovered');
      }
    } catch (error) {
      this.deps.logger.error({ err: error }, 'Peer discovery round failed');
    }
  }
}

function shuffle<T>(items: T[]): T[] {
  for (let index = items.length - 1; index > 0; index--) {
    const other = Math.floor(Math.random() * (index + 1));
    [items[index], items[other]] = [items[other] as T, items[index] as T];
  }
  return items;
}

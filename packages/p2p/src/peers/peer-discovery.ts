import type { Logger } from '@lni/kernel';
import { IpMatcher, LOCAL_RANGES, normaliseIp } from '../limits/ip-matcher.js';
import { peersResponseSchema, type PeerListEntry } from '../protocol/messages.js';
import { peerKey } from './peer.js';
import type { PeerNetwork } from './peer-network.js';
import type { PeerRepository } from './peer-repository.js';
import type { SeedPeer } from './seed-list.js';

export interface PeerDiscoveryDependencies {
  readonly network: PeerNetwork;
  readonly peers: PeerRepository;
  readonly logger: Logger;
  /** Dial local and private addresses that other peers list (true only for test networks). */
  readonly acceptLocalPeers: boolean;
}

/** Finds peers: the seeds first, then the peers our peers know, up to the cap. */
export class PeerDiscovery {
  private readonly local = new IpMatcher(LOCAL_RANGES);
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: PeerDiscoveryDependencies) {}

  /** Connects to every seed; failures are logged, not thrown, since seeds come and go. */
  async seed(seeds: readonly SeedPeer[]): Promise<number> {
    const outcomes = await Promise.allSettled(
      seeds.map((seed) => this.deps.network.connect(seed.ip, seed.port)),
    );
    outcomes.forEach((outcome, index) => {
      if (outcome.status === 'rejected') {
        this.deps.logger.warn({ seed: seeds[index], err: outcome.reason }, 'Seed unreachable');
      }
    });
    return outcomes.filter((outcome) => outcome.status === 'fulfilled' && outcome.value === 'added')
      .length;
  }

  /** Asks every connected peer for its peers and dials new ones until the cap; returns how many joined. */
  async discover(): Promise<number> {
    const { network, peers, logger } = this.deps;
    const candidates = new Map<string, PeerListEntry>();
    await Promise.all(
      network.connected().map(async (client) => {
        try {
          const list = await client.request('getPeers', {}, peersResponseSchema);
          for (const entry of list) {
            candidates.set(peerKey(normaliseIp(entry.ip), entry.port), entry);
          }
        } catch (error) {
          network.reportFailure(client, error);
        }
      }),
    );
    let added = 0;
    for (const { ip, port } of candidates.values()) {
      if (peers.isFull) break;
      if (peers.has(normaliseIp(ip), port) || network.isSelf(ip, port)) continue;
      // A stranger listing 127.0.0.1 or 10.x would make us dial into our own network.
      if (!this.deps.acceptLocalPeers && this.local.matches(ip)) continue;
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

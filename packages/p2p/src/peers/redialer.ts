import { type Logger, canonicalAddress } from '@lni/kernel';
import { peerKey } from './peer.js';
import type { PeerNetwork } from './peer-network.js';
import type { PeerRepository } from './peer-repository.js';
import type { SeedPeer } from './seed-list.js';

export interface RedialerDeps {
  readonly network: PeerNetwork;
  readonly peers: PeerRepository;
  readonly seeds: readonly SeedPeer[];
  readonly logger: Logger;
  /** First wait before dialling an address again; doubled after each failure. */
  readonly minDelayMs: number;
  readonly maxDelayMs: number;
  /** How often due addresses are looked for. */
  readonly tickMs?: number;
}

/** An address to dial again; seeds are let in whatever their /24 holds. */
interface Candidate extends SeedPeer {
  readonly seed: boolean;
}

interface Attempt {
  failures: number;
  nextAt: number;
}

/** Dials at most this many addresses at once, so a long list does not flood the network. */
const MAX_DIALS_PER_TICK = 8;

/**
 * Keeps the node connected for as long as it runs: the seeds of peers.json and every peer it
 * knew but lost (a dropped connection, a restart) are dialled again, each with its own
 * exponential backoff with jitter, reset when a dial succeeds.
 */
export class Redialer {
  private readonly attempts = new Map<string, Attempt>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly deps: RedialerDeps) {}

  start(): void {
    this.stop();
    this.timer = setInterval(() => void this.tick(), this.deps.tickMs ?? 1_000);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** A peer was just lost: dial it again after the shortest wait. */
  lost(ip: string, port: number): void {
    this.attempts.set(peerKey(canonicalAddress(ip), port), {
      failures: 0,
      nextAt: Date.now() + this.deps.minDelayMs,
    });
  }

  /** Dials every due address that is not connected; resolves when those dials ended. */
  async tick(): Promise<void> {
    const { network, peers } = this.deps;
    if (peers.isFull) return;
    const now = Date.now();
    const due = this.candidates().filter(({ ip, port }) => {
      if (network.client(ip, port)?.isOpen || network.isDialling(ip, port)) return false;
      return (this.attempts.get(peerKey(ip, port))?.nextAt ?? 0) <= now;
    });
    await Promise.all(due.slice(0, MAX_DIALS_PER_TICK).map((peer) => this.dial(peer)));
  }

  private candidates(): Candidate[] {
    const seen = new Set<string>();
    const list: Candidate[] = [];
    const seeds = this.deps.seeds.map((peer) => ({ ...peer, seed: true }));
    const lost = this.deps.peers.lost().map((peer) => ({ ...peer, seed: false }));
    for (const { ip: address, port, seed } of [...seeds, ...lost]) {
      const ip = canonicalAddress(address);
      const key = peerKey(ip, port);
      if (seen.has(key) || this.deps.network.isSelf(ip, port)) continue;
      seen.add(key);
      list.push({ ip, port, seed });
    }
    return list;
  }

  private async dial({ ip, port, seed }: Candidate): Promise<void> {
    const key = peerKey(ip, port);
    try {
      const outcome = await this.deps.network.connect(ip, port, { seed });
      if (outcome === 'added' || outcome === 'updated') {
        this.attempts.delete(key);
        this.deps.logger.info({ ip, port }, 'Peer dialled again');
        return;
      }
      this.backOff(key, outcome);
    } catch (error) {
      this.backOff(key, (error as Error).message);
    }
  }

  private backOff(key: string, reason: string): void {
    const failures = (this.attempts.get(key)?.failures ?? 0) + 1;
    const { minDelayMs, maxDelayMs } = this.deps;
    const delay = Math.min(maxDelayMs, minDelayMs * 2 ** Math.min(failures - 1, 20));
    // Up to a quarter of jitter, so nodes that lost each other do not dial in lockstep.
    const nextAt = Date.now() + delay * (1 + Math.random() / 4);
    this.attempts.set(key, { failures, nextAt });
    this.deps.logger.debug(
      { peer: key, failures, retryInMs: Math.round(nextAt - Date.now()), reason },
      'Redial failed',
    );
  }
}

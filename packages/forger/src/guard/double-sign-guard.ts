import type { Logger } from '@lni/kernel';
import { NetworkStatus } from '@lni/p2p/wire';
import type { NetworkState, RelayRound } from '../forging/relay-port.js';
import type { SignedMark, SigningRecord } from './signing-record.js';

/** Another forger signed with one of our keys: what is reported (log, metric, event). */
export interface DoubleSignPrevented {
  /** The delegate's username, or its public key when no username is known. */
  readonly delegate: string;
  readonly publicKey: string;
  /** The height and slot this forger did not sign. */
  readonly height: number;
  readonly slot: number;
  /** The block signed elsewhere with the same key. */
  readonly otherBlock: { readonly id: string; readonly height: number };
}

export interface DoubleSignGuardDeps {
  readonly record: SigningRecord;
  readonly logger: Logger;
  /** Told once per prevented double sign (the plugin counts it and publishes an event). */
  readonly report: (prevented: DoubleSignPrevented) => void;
  /** At least this long after start before the first block, whatever the relay says. */
  readonly startupWaitMs: number;
  readonly now?: () => number;
}

/** Another forger was seen: the delegate (name) and the block that showed it. */
export interface StandDown {
  readonly delegate: string;
  readonly id: string;
  readonly height: number;
}

export type GuardVerdict =
  | { readonly sign: true }
  | {
      readonly sign: false;
      readonly reason: string;
      /** The guard logged this refusal itself (a double sign prevented): no second line. */
      readonly reported?: true;
    };

/**
 * Keeps a forger from signing twice: never at or below a height or in a slot it signed (its
 * record on disk), not before its relay is level with the network after a start, and not at
 * all once a block signed with one of its keys by someone else is seen (a second forger holding
 * the same secrets, usually a copy of the same delegates.json): the other keeps forging, this
 * one stands down for every delegate until restarted, as the delegates it has not seen yet are
 * most likely held there too.
 */
export class DoubleSignGuard {
  private readonly startedAt: number;
  /** The first slot seen after start: blocks by our keys from then on that we did not sign are another forger's. */
  private firstSlot: number | undefined;
  private level = false;
  /** Set once another forger is seen: which delegate's block showed it. */
  private standingDown: StandDown | undefined;

  constructor(private readonly deps: DoubleSignGuardDeps) {
    this.startedAt = this.now();
  }

  /**
   * Looks at the relay's last block on every look at the slot: one signed with a key we hold
   * that we did not sign is another forger's. Not signed here: above the height we last signed
   * for that key, or (with nothing recorded for it) in a slot since our start.
   */
  observe(
    round: RelayRound,
    ourKeys: ReadonlySet<string>,
    name: (publicKey: string) => string,
  ): void {
    this.firstSlot ??= round.slotTimestamp;
    const generator = round.lastBlock.generatorPublicKey;
    const slot = round.lastBlock.timestamp;
    if (generator === undefined || slot === undefined || !ourKeys.has(generator)) return;
    if (!this.signedElsewhere(generator, { ...round.lastBlock, timestamp: slot })) return;
    this.fence(generator, name(generator), round.lastBlock, {
      height: round.lastBlock.height + 1,
      slot: round.slotTimestamp,
    });
  }

  /** Whether `publicKey` may sign a block at `height` in `slot`, and the reason when not. */
  permit(
    publicKey: string,
    delegate: string,
    target: { readonly height: number; readonly slot: number },
    network: NetworkState,
  ): GuardVerdict {
    if (this.standingDown) {
      const { delegate: seen, id, height } = this.standingDown;
      return {
        sign: false,
        reason: `standing down: another forger signs with ${seen}'s key (block ${id} at height ${height})`,
      };
    }
    const mark = this.deps.record.last(publicKey);
    if (mark && (target.height <= mark.height || target.slot <= mark.slot)) {
      return {
        sign: false,
        reason: `this delegate signed up to height ${mark.height} and slot ${mark.slot} already (signing record)`,
      };
    }
    const other = Object.values(network.quorumDetails.peersOverHeightBlockHeaders).find(
      (header) => header.generatorPublicKey === publicKey && header.height >= target.height,
    );
    if (other) {
      this.fence(publicKey, delegate, other, target);
      return {
        sign: false,
        reason: `block ${other.id} at height ${other.height} is signed with this key`,
        reported: true,
      };
    }
    if (!this.level) {
      const waiting = this.waitingReason(network);
      if (waiting) return { sign: false, reason: waiting };
      this.level = true;
    }
    return { sign: true };
  }

  /** Records the block before it leaves: durable when this returns. */
  signed(publicKey: string, mark: SignedMark): void {
    this.deps.record.mark(publicKey, mark);
  }

  /** The guard's state for one delegate, for `forger:status`. */
  state(publicKey: string): { lastSigned?: SignedMark; standingDown?: StandDown } {
    const lastSigned = this.deps.record.last(publicKey);
    const standingDown = this.standingDown;
    return { ...(lastSigned && { lastSigned }), ...(standingDown && { standingDown }) };
  }

  private waitingReason(network: NetworkState): string | undefined {
    const waited = this.now() - this.startedAt;
    if (waited < this.deps.startupWaitMs) {
      return `started ${Math.round(waited / 1000)} s ago; the first block waits startupWait (${this.deps.startupWaitMs} ms)`;
    }
    if (network.status === NetworkStatus.Unknown || network.status === NetworkStatus.ColdStart) {
      return 'waiting for the relay to know the network before the first block since start';
    }
    if (network.quorumDetails.peersOverHeight > 0) {
      return `waiting for the relay to be level with the network before the first block since start (${network.quorumDetails.peersOverHeight} peers are above it)`;
    }
    return undefined;
  }

  private signedElsewhere(
    publicKey: string,
    block: { id: string; height: number; timestamp: number },
  ): boolean {
    const mark = this.deps.record.last(publicKey);
    if (mark === undefined) return block.timestamp >= (this.firstSlot ?? Infinity);
    return block.height > mark.height || (block.height === mark.height && block.id !== mark.id);
  }

  private fence(
    publicKey: string,
    delegate: string,
    other: { id: string; height: number },
    target: { height: number; slot: number },
  ): void {
    if (this.standingDown) return;
    this.standingDown = { delegate, id: other.id, height: other.height };
    this.deps.logger.warn(
      { delegate, otherBlock: other.id, otherHeight: other.height, height: target.height },
      "Double signing prevented: another forger signs with this delegate's key; this forger stops forging for all its delegates until restarted",
    );
    this.deps.report({
      delegate,
      publicKey,
      ...target,
      otherBlock: { id: other.id, height: other.height },
    });
  }

  private now(): number {
    return this.deps.now?.() ?? Date.now();
  }
}

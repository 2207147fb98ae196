/**
 * What a forger needs from the ledger, served on the internal P2P endpoints. The `state` plugin
 * registers the implementation in the container as `p2pForging`; p2p only turns it into JSON.
 */
export interface ForgingPort {
  /** The round and slot as the ledger sees them now. */
  currentRound(): ForgingRound | Promise<ForgingRound>;
  /** Serialized (hex) transactions for the next block, best first, within the milestone limits. */
  transactionsForForging(): readonly string[] | Promise<readonly string[]>;
}

export interface ForgingRound {
  /** Round number, 1-based. */
  readonly round: number;
  /** Reward of the next block, in arktoshi. */
  readonly reward: bigint;
  /** Seconds since the network's epoch at the start of the current slot. */
  readonly slotTimestamp: number;
  /** Whether now is within the forging window of the slot. */
  readonly canForge: boolean;
  /** Public keys (hex) of the delegate of the current slot and of the next one. */
  readonly currentForger: string;
  readonly nextForger: string;
  /** Our last block: the next block builds on it. */
  readonly lastBlock: { readonly id: string; readonly height: number };
  readonly msUntilNextSlot: number;
}

/** The network as a forger judges it before forging (ARK 3.0's network state). */
export interface NetworkState {
  /** Our height, and the height most peers report. */
  readonly nodeHeight: number;
  readonly networkHeight: number;
  /** Peers that answered. */
  readonly peers: number;
  /** Share (0..1) of those peers at or above our height that agree with our last block. */
  readonly quorum: number;
  /** Blocks peers already have above our height: someone forged this slot already. */
  readonly blocksAboveHeight: readonly {
    readonly id: string;
    readonly height: number;
    readonly generatorPublicKey: string;
  }[];
}

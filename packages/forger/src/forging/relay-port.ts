/**
 * What the forger asks of a relay, over the relay's internal P2P endpoints. The same code path
 * serves the in-process forger of core mode and a forger process talking to remote relays.
 */
export interface RoundInfo {
  /** Round number, 1-based. */
  readonly round: number;
  /** Reward of the next block. */
  readonly reward: bigint;
  /** Epoch seconds at the start of the current slot. */
  readonly slotTimestamp: number;
  /** Whether the current time is within the forging window of the slot. */
  readonly canForge: boolean;
  /** The delegate whose slot it is, and who comes next. */
  readonly currentForger: string;
  readonly nextForger: string;
  /** The relay's last block: the next block builds on it. */
  readonly lastBlock: { readonly id: string; readonly height: number };
  /** Milliseconds until the next slot begins. */
  readonly msUntilNextSlot: number;
}

export interface NetworkState {
  /** The relay's own height and the height most of its peers report. */
  readonly nodeHeight: number;
  readonly networkHeight: number;
  /** Peers that answered, and the share of them on our last block (0..1). */
  readonly peers: number;
  readonly quorum: number;
  /** Block ids peers already have above our height: someone forged this slot already. */
  readonly blocksAboveHeight: readonly {
    readonly height: number;
    readonly generatorPublicKey: string;
  }[];
}

export interface RelayPort {
  /** Where the relay is, for logs. */
  readonly name: string;
  currentRound(): Promise<RoundInfo>;
  networkState(): Promise<NetworkState>;
  /** Serialized (hex) transactions for the next block, best first, within the milestone limits. */
  transactionsForBlock(): Promise<readonly string[]>;
  /** Posts a forged, serialized (hex) block. */
  postBlock(block: string): Promise<void>;
}

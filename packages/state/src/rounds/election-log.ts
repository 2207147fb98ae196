/** The delegates elected for a round, in forging order, with the votes that elected them. */
export interface ElectedRound {
  readonly round: number;
  readonly order: readonly string[];
  readonly votes: ReadonlyMap<string, bigint>;
}

/**
 * Which round a block's application elected, so that storage keeps each round's delegates with
 * the block that elected them and forgets them with it (`GET /api/rounds/{n}/delegates`).
 */
export interface ElectionLog {
  /** The round the block at `height` elected: round 1 at genesis, round r + 1 at r's last block. */
  electedBy(height: number): ElectedRound | undefined;
  /** The latest round elected once the chain ends at `height`. */
  latestRoundAt(height: number): number;
}

/** What shaping a block or transaction needs to know about the chain and the network. */
export interface ChainContext {
  /** Height of the last block: confirmations are counted from it. */
  readonly height: number;
  /** When the network's epoch began (the milestone `epoch`). */
  readonly epochStart: string;
  /** The network's address of a public key. */
  readonly addressOf: (publicKey: string) => string;
  /** The delegate username of a public key, when it is a delegate. */
  readonly usernameOf?: (publicKey: string) => string | undefined;
}

export const confirmationsOf = (blockHeight: number, context: ChainContext): number =>
  Math.max(0, context.height - blockHeight + 1);

/** The made-up public key of bench wallet `n` (delegates are voted for by it). */
export const benchPublicKey = (n: number) => `02${n.toString(16).padStart(64, '0')}`;

export interface SeededWalletOptions {
  /** Wallets 0 to `delegates - 1` are delegates, ranked in that order. */
  readonly delegates: number;
  /** One delegate in this many (the last of each run of them) has resigned; none unless set. */
  readonly resignEvery?: number;
}

/**
 * The benches' wallet fields, the same at every run: balances, votes (three wallets in ten)
 * and delegate figures drawn from a seeded generator, in the order of the wallets asked for.
 */
export function seededWalletFields({ delegates, resignEvery }: SeededWalletOptions) {
  let seed = 7;
  const random = () => {
    seed = (seed * 16807) % 2147483647;
    return seed / 2147483647;
  };
  return (n: number) => ({
    balance: BigInt(Math.floor(random() * 1e9)) * 1000n,
    nonce: BigInt(n % 17),
    attributes: {
      ...(random() < 0.3 && { vote: benchPublicKey(Math.floor(random() * delegates)) }),
      ...(n < delegates && {
        delegate: {
          username: `delegate_${n}`,
          voteBalance: BigInt(Math.floor(random() * 1e9)) * 100_000n,
          forgedFees: 0n,
          forgedRewards: BigInt(n) * 200_000_000n,
          producedBlocks: n,
          rank: n + 1,
          ...(resignEvery !== undefined &&
            n % resignEvery === resignEvery - 1 && { resigned: true }),
        },
      }),
    },
  });
}

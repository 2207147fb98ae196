import fc from 'fast-check';
import type { Wallet } from '@lni/state';

const key = (n: number) => `02${n.toString(16).padStart(64, '0')}`;
// Mixed case and digits: an order by address must be code-unit order, whatever the collation.
const ADDRESS_CHARACTERS = 'ABZabz019_';

/** Amounts with many ties, some past 2^53 (numeric, not double precision). */
const amount = fc.oneof(
  fc.constantFrom(0n, 1n, 7n, 100n, 9_007_199_254_740_993n, 18_000_000_000_000_000_000n),
  fc.bigInt({ min: 0n, max: 1_000n }),
);

const lastBlock = fc.record({
  id: fc.constantFrom('1', '22', '333', 'abc'),
  height: fc.integer({ min: 1, max: 5 }),
  timestamp: fc.integer({ min: 0, max: 5 }),
});

const delegate = (username: string) =>
  fc.record(
    {
      username: fc.constant(username),
      voteBalance: amount,
      forgedFees: amount,
      forgedRewards: amount,
      producedBlocks: fc.integer({ min: 0, max: 4 }),
      missedBlocks: fc.integer({ min: 0, max: 3 }),
      rank: fc.integer({ min: 1, max: 6 }),
      resigned: fc.constant(true),
      lastBlock,
    },
    { requiredKeys: ['username', 'voteBalance', 'forgedFees', 'forgedRewards', 'producedBlocks'] },
  );

/** One wallet of index `n`: a delegate, a voter, a multi-signature or HTLC holder, or plain. */
const walletAt = (n: number, delegates: number) =>
  fc
    .record({
      suffix: fc.string({ unit: fc.constantFrom(...ADDRESS_CHARACTERS), maxLength: 3 }),
      hasKey: fc.boolean(),
      balance: amount,
      nonce: fc.bigInt({ min: 0n, max: 3n }),
      delegate: n < delegates ? delegate(`d_${n % 7}${n}`).map((d) => d) : fc.constant(undefined),
      vote: fc.option(fc.integer({ min: 0, max: delegates }).map(key), { nil: undefined }),
      secondPublicKey: fc.option(fc.constantFrom(key(900), key(901)), { nil: undefined }),
      multiSignatureMin: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
      lockedBalance: fc.option(amount, { nil: undefined }),
    })
    .map(({ suffix, hasKey, balance, nonce, delegate, vote, secondPublicKey, ...rest }): Wallet => {
      const attributes: Record<string, unknown> = {};
      if (delegate) attributes.delegate = delegate;
      if (vote) attributes.vote = vote;
      if (secondPublicKey) attributes.secondPublicKey = secondPublicKey;
      if (rest.multiSignatureMin !== undefined) {
        attributes.multiSignature = { min: rest.multiSignatureMin, publicKeys: [key(1), key(2)] };
      }
      if (rest.lockedBalance !== undefined) {
        attributes.htlc = { lockedBalance: rest.lockedBalance, locks: {} };
      }
      const wallet = { address: `${suffix}${n}`, balance, nonce, attributes } as Wallet;
      return hasKey || delegate ? { ...wallet, publicKey: key(n) } : wallet;
    });

/** `count` wallets, the first `delegates` of them delegates, the same for the same seed. */
export function randomWallets(count: number, delegates: number, seed: number): Wallet[] {
  return Array.from({ length: count }, (_, n) => {
    const [wallet] = fc.sample(walletAt(n, delegates), { numRuns: 1, seed: seed + n });
    return wallet as Wallet;
  });
}

import {
  addressFromPassphrase,
  addressFromPublicKey,
  delegateRegistration,
  forgeBlock,
  keysFromPassphrase,
  transfer,
  vote,
  type KeyPair,
  type Milestones,
  type TransactionData,
} from '@lni/crypto';
import databasePlugin from '@lni/database';
import type { Plugin } from '@lni/kernel';
import { startTestKernel } from '@lni/kernel/testing';
import statePlugin from '@lni/state';
import { join } from 'node:path';
import type { ServerConnection } from './postgres.js';

/** What `buildVotingChain` made, for routes that take an id. */
export interface VotingChain {
  readonly height: number;
  readonly addresses: readonly string[];
  /** The usernames of the delegates registered on top of the network's genesis delegates. */
  readonly usernames: readonly string[];
  readonly votes: number;
}

export interface VotingChainOptions {
  readonly connection: ServerConnection;
  /** A generated network's directories (`network:generate --config`); the log goes under data. */
  readonly dirs: { readonly config: string; readonly data: string };
  /** The genesis delegates' secrets, who fund the wallets. */
  readonly funders: readonly string[];
  readonly pubKeyHash: number;
  readonly wallets: number;
  /** How many of the wallets register as delegates. */
  readonly delegates: number;
  /** One wallet in `voterEvery` (delegates excepted) votes for a registered delegate. */
  readonly voterEvery: number;
  readonly perBlock: number;
}

const COIN = 100_000_000n;

/** The passphrase of the bench's wallet `n`. */
export const walletPassphrase = (n: number) => `voting chain wallet ${n}`;

/**
 * A chain of wallets, delegates and votes, stored through the state plugin in-process block by
 * block (each verified, applied and stored, forged by its slot's delegate in consecutive slots):
 * the funders pay every wallet, the first `delegates` wallets register, and one in `voterEvery`
 * of the others votes. The network's epoch must lie far enough back for every slot to be past.
 */
export async function buildVotingChain(options: VotingChainOptions): Promise<VotingChain> {
  const { dirs, pubKeyHash, wallets, delegates, voterEvery, perBlock } = options;
  const kernel = await startTestKernel({
    plugins: [
      { plugin: databasePlugin as Plugin<object>, options: { connection: options.connection } },
      { plugin: statePlugin as Plugin<object>, options: { verificationWorkers: 0 } },
    ],
    paths: { config: dirs.config, data: dirs.data, log: join(dirs.data, 'build-log') },
    printLevel: 'fatal',
  });
  try {
    const cradle = kernel.cradle as unknown as {
      blockProcessor: {
        lastBlock: { height: number; timestamp: number } | undefined;
        process(block: unknown): Promise<void>;
      };
      roundKeeper: {
        slotOf(timestamp: number, height: number): number;
        slotTime(slot: number, height: number): number;
        forgerAt(height: number, timestamp: number): string;
      };
      milestones: Milestones;
      walletRepository: { get(address: string): { nonce: bigint } | undefined };
    };
    const { blockProcessor, roundKeeper, milestones } = cradle;
    const funders = options.funders.map((secret) => keysFromPassphrase(secret));
    const byKey = new Map(funders.map((keys) => [keys.publicKey.toString('hex'), keys]));
    const funderNonces = funders.map(
      (keys) =>
        cradle.walletRepository.get(addressFromPublicKey(keys.publicKey, pubKeyHash))?.nonce ?? 0n,
    );
    const addresses = Array.from({ length: wallets }, (_, n) =>
      addressFromPassphrase(walletPassphrase(n), pubKeyHash),
    );
    const usernames = Array.from({ length: delegates }, (_, n) => `bench_delegate_${n}`);
    const height = () => (blockProcessor.lastBlock?.height ?? 0) + 1;
    const forgeAll = async (transactions: readonly TransactionData[]) => {
      for (let start = 0; start < transactions.length; start += perBlock) {
        const last = blockProcessor.lastBlock as { height: number; timestamp: number };
        const at = roundKeeper.slotTime(roundKeeper.slotOf(last.timestamp, height()) + 1, height());
        const keys = byKey.get(roundKeeper.forgerAt(height(), at)) as KeyPair;
        await blockProcessor.process(
          forgeBlock({
            transactions: transactions.slice(start, start + perBlock),
            previousBlock: last as never,
            timestamp: at,
            keys,
            milestones,
          }),
        );
      }
    };
    const signing = () => ({ network: pubKeyHash, milestone: milestones.at(height()) });

    // Balances with ties and a spread; enough for a registration's or a vote's fee.
    const payments = addresses.map((recipient, n) => {
      const sender = n % funders.length;
      funderNonces[sender] = (funderNonces[sender] as bigint) + 1n;
      return transfer(signing())
        .recipientId(recipient)
        .amount(30n * COIN + BigInt((n * 7_919) % 100_000) * 10_000n)
        .nonce(funderNonces[sender] as bigint)
        .sign(funders[sender] as KeyPair)
        .build();
    });
    await forgeAll(payments);
    await forgeAll(
      usernames.map((username, n) =>
        delegateRegistration(signing())
          .username(username)
          .nonce(1n)
          .sign(walletPassphrase(n))
          .build(),
      ),
    );
    const delegateKeys = usernames.map((_, n) =>
      keysFromPassphrase(walletPassphrase(n)).publicKey.toString('hex'),
    );
    const votes: TransactionData[] = [];
    for (let n = delegates; n < wallets; n += voterEvery) {
      votes.push(
        vote(signing())
          .vote(delegateKeys[n % delegates] as string)
          .nonce(1n)
          .sign(walletPassphrase(n))
          .build(),
      );
    }
    await forgeAll(votes);
    return { height: height() - 1, addresses, usernames, votes: votes.length };
  } finally {
    await kernel.stop();
  }
}

/** Blocks `buildVotingChain` forges for these sizes, to place the network's epoch before them. */
export function votingChainBlocks(
  options: Pick<VotingChainOptions, 'wallets' | 'delegates' | 'voterEvery' | 'perBlock'>,
): number {
  const { wallets, delegates, voterEvery, perBlock } = options;
  const votes = Math.ceil(Math.max(0, wallets - delegates) / voterEvery);
  return [wallets, delegates, votes].reduce((sum, n) => sum + Math.ceil(n / perBlock), 0);
}

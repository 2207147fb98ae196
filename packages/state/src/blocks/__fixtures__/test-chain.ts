import {
  addressFromPassphrase,
  blockFromJson,
  forgeBlock,
  generateNetwork,
  keysFromPassphrase,
  Milestones,
  transfer,
  type KeyPair,
  type TransactionData,
} from '@lni/crypto';
import { createLogger } from '@lni/kernel';
import { WalletRepository } from '../../wallets/wallet-repository.js';
import type { BlockStore, FullBlock } from '../block-store.js';
import { BlockProcessor } from '../block-processor.js';
import { RoundRobinSchedule } from './round-robin-schedule.js';

export const PUB_KEY_HASH = 23;
export const BLOCKTIME = 8;
export const ALICE = 'alice test passphrase for the chain helper';
export const BOB = 'bob test passphrase for the chain helper';
export const INITIAL_BALANCE = 1_000_000_000_000n;

/** A generated network of 5 delegates whose genesis funds alice and bob. */
export function testNetwork(options: { maxTransactions?: number; maxPayload?: number } = {}) {
  let counter = 0;
  const generated = generateNetwork({
    name: 'chaintest',
    delegates: 5,
    pubKeyHash: PUB_KEY_HASH,
    blocktime: BLOCKTIME,
    epoch: '2026-01-01T00:00:00.000Z',
    rewardHeight: 2,
    reward: 200_000_000n,
    maxTransactions: options.maxTransactions ?? 500,
    maxPayload: options.maxPayload ?? 2_097_152,
    balances: [
      { address: addressFromPassphrase(ALICE, PUB_KEY_HASH), amount: INITIAL_BALANCE },
      { address: addressFromPassphrase(BOB, PUB_KEY_HASH), amount: INITIAL_BALANCE },
    ],
    createSecret: () => `chain test delegate secret number ${counter++}`,
  });
  const milestones = new Milestones(generated.milestones);
  const genesis = blockFromJson(generated.genesisBlock, { network: PUB_KEY_HASH });
  const delegateKeys = generated.secrets.map((secret) => keysFromPassphrase(secret));
  const schedule = new RoundRobinSchedule(
    delegateKeys.map((keys) => keys.publicKey.toString('hex')),
    BLOCKTIME,
  );
  return { generated, milestones, genesis, delegateKeys, schedule };
}

export type TestNetwork = ReturnType<typeof testNetwork>;

/** A processor over fresh wallets with the round-robin schedule. */
export function testProcessor(
  network: TestNetwork,
  blockStore: BlockStore,
  options: { clock?: () => number } = {},
) {
  const wallets = new WalletRepository();
  const processor = new BlockProcessor({
    wallets,
    milestones: network.milestones,
    network: { pubKeyHash: PUB_KEY_HASH },
    forgingSchedule: network.schedule,
    blockStore,
    logger: createLogger({ level: 'fatal' }),
    ...options,
  });
  return { wallets, processor };
}

/**
 * The next block after `previous`, forged by the delegate of the next slot (or `keys`, to
 * forge as the wrong one), `slotsLater` slots after the previous block's.
 */
export function nextBlock(
  network: TestNetwork,
  previous: FullBlock,
  transactions: readonly TransactionData[],
  options: { keys?: KeyPair; slotsLater?: number; timestamp?: number } = {},
): FullBlock {
  const timestamp =
    options.timestamp ??
    (Math.floor(previous.timestamp / BLOCKTIME) + (options.slotsLater ?? 1)) * BLOCKTIME;
  const forger = network.schedule.forgerAt(previous.height + 1, timestamp);
  const keys =
    options.keys ??
    (network.delegateKeys.find((k) => k.publicKey.toString('hex') === forger) as KeyPair);
  return forgeBlock({
    transactions,
    previousBlock: previous,
    timestamp,
    keys,
    milestones: network.milestones,
  });
}

const keyCache = new Map<string, KeyPair>();
/** Key pairs of test passphrases, derived once (derivation dominates signing otherwise). */
export function keysOf(passphrase: string): KeyPair {
  let keys = keyCache.get(passphrase);
  if (!keys) {
    keys = keysFromPassphrase(passphrase);
    keyCache.set(passphrase, keys);
  }
  return keys;
}

/** A signed transfer of `amount` from the passphrase's wallet. */
export function transferOf(
  passphrase: string,
  recipient: string,
  amount: bigint,
  nonce: bigint,
  fee = 10_000_000n,
): TransactionData {
  return transfer({ network: PUB_KEY_HASH })
    .recipientId(recipient)
    .amount(amount)
    .fee(fee)
    .nonce(nonce)
    .sign(keysOf(passphrase))
    .build();
}

export const addressOf = (passphrase: string): string =>
  addressFromPassphrase(passphrase, PUB_KEY_HASH);

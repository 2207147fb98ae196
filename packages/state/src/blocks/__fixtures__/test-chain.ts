import {
  addressFromPassphrase,
  blockFromJson,
  delegateRegistration,
  forgeBlock,
  generateNetwork,
  keysFromPassphrase,
  Milestones,
  transfer,
  vote,
  type KeyPair,
  type TransactionData,
} from '@lni/crypto';
import { createLogger } from '@lni/kernel';
import { WalletRepository } from '../../wallets/wallet-repository.js';
import type { BlockStore, FullBlock } from '../block-store.js';
import { BlockProcessor, type BlockProcessorDeps } from '../block-processor.js';
import { RoundRobinSchedule } from './round-robin-schedule.js';

export const PUB_KEY_HASH = 23;
export const BLOCKTIME = 8;
export const ALICE = 'alice test passphrase for the chain helper';
export const BOB = 'bob test passphrase for the chain helper';
export const INITIAL_BALANCE = 1_000_000_000_000n;

/** The secrets generateNetwork was given: number 0 is the premine wallet's, then the delegates'. */
const secretNumber = (n: number) => `chain test delegate secret number ${n}`;

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
    createSecret: () => secretNumber(counter++),
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

/**
 * The same network with an ARK 2.x past: its genesis block is made of version-1 transactions as
 * ARK's testnet genesis is (premine transfers, each delegate's registration and self-vote), and
 * version 1 stays the rule until `aip11Height`, as on a chain that began under release 2.
 */
export function legacyTestNetwork(aip11Height = 5): TestNetwork {
  const network = testNetwork();
  const [first, ...later] = network.generated.milestones;
  if (!first) throw new Error('fixture: no milestones');
  const milestones = new Milestones([
    { ...first, aip11: false, htlcEnabled: false },
    ...later,
    { height: aip11Height, aip11: true, htlcEnabled: true },
  ]);
  const options = { network: PUB_KEY_HASH };
  const delegates = network.generated.secrets;
  const transactions = [
    ...[ALICE, BOB].map((passphrase) =>
      transfer(options)
        .version(1)
        .fee(0n)
        .recipientId(addressOf(passphrase))
        .amount(INITIAL_BALANCE)
        .sign(keysOf(secretNumber(0)))
        .build(),
    ),
    ...delegates.map((secret, index) =>
      delegateRegistration(options)
        .version(1)
        .fee(0n)
        .username(`genesis_${index + 1}`)
        .sign(keysOf(secret))
        .build(),
    ),
    ...delegates.map((secret) =>
      vote(options)
        .version(1)
        .fee(0n)
        .vote(keysOf(secret).publicKey.toString('hex'))
        .sign(keysOf(secret))
        .build(),
    ),
  ];
  const genesis = forgeBlock({
    transactions,
    timestamp: 0,
    keys: keysOf(secretNumber(0)),
    milestones,
  });
  return { ...network, milestones, genesis };
}

/** A processor over fresh wallets with the round-robin schedule. */
export function testProcessor(
  network: TestNetwork,
  /** Or the store made for the processor's wallets (one writing the wallets table). */
  blockStore: BlockStore | ((wallets: WalletRepository) => BlockStore),
  options: Partial<
    Pick<
      BlockProcessorDeps,
      'clock' | 'chainListeners' | 'verifiedTransactions' | 'verificationPool' | 'events' | 'logger'
    >
  > = {},
) {
  const wallets = new WalletRepository();
  const processor = new BlockProcessor({
    wallets,
    milestones: network.milestones,
    network: { pubKeyHash: PUB_KEY_HASH },
    forgingSchedule: network.schedule,
    blockStore: typeof blockStore === 'function' ? blockStore(wallets) : blockStore,
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

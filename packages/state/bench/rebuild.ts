/**
 * Boot rebuild benchmark: a generated chain of REBUILD_TX transactions (default 1,000,000:
 * transfers, multipayments and votes from 1,000 funded senders to 100,000 recipients) is stored
 * in a fresh PostgreSQL database, then replayed onto empty wallets the way a node boots, by the
 * built package (`npm run build` first). Run: npx tsx packages/state/bench/rebuild.ts
 *
 * Signatures are random bytes: a rebuild never checks them (stored blocks were verified when
 * they were applied), and signing a million transactions would only make the set-up slow.
 * Every transaction still goes through its handler's rules during the replay.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import {
  addressFromPublicKey,
  blockFromJson,
  forgeBlock,
  generateNetwork,
  keysFromPassphrase,
  Milestones,
  multiPayment,
  transactionId,
  transfer,
  vote,
  type TransactionData,
} from '@lni/crypto';
import { createLogger } from '@lni/kernel';
// What is timed comes from the built package, as `kernel start` runs it; the fixtures that set
// the chain up come from the sources.
import { BlockProcessor } from '../dist/blocks/block-processor.js';
import type { FullBlock } from '../src/blocks/block-store.js';
import { RoundRobinSchedule } from '../src/blocks/__fixtures__/round-robin-schedule.js';
import { openTestStore } from '../src/blocks/__fixtures__/test-database.js';
import { StateRebuilder } from '../dist/boot/state-rebuilder.js';
import { WalletRepository } from '../dist/wallets/wallet-repository.js';

const TOTAL_TX = Number(process.env.REBUILD_TX ?? 1_000_000);
const PER_BLOCK = 150;
const SENDERS = 1_000;
const RECIPIENTS = 100_000;
const PUB_KEY_HASH = 23;

const senders = Array.from({ length: SENDERS }, (_, i) =>
  keysFromPassphrase(`rebuild sender ${i}`),
);
const senderKeys = senders.map((keys) => keys.publicKey.toString('hex'));
const recipients = Array.from({ length: RECIPIENTS }, (_, i) =>
  addressFromPublicKey(keysFromPassphrase(`rebuild recipient ${i}`).publicKey, PUB_KEY_HASH),
);
let secret = 0;
const generated = generateNetwork({
  name: 'rebuildbench',
  delegates: 51,
  pubKeyHash: PUB_KEY_HASH,
  epoch: '2026-01-01T00:00:00.000Z',
  maxTransactions: 500,
  balances: senders.map((keys) => ({
    address: addressFromPublicKey(keys.publicKey, PUB_KEY_HASH),
    amount: 10_000_000_000_000n,
  })),
  createSecret: () => `rebuild bench delegate ${secret++}`,
});
const milestones = new Milestones(generated.milestones);
const milestone = milestones.at(2);
const delegateKeys = generated.secrets.map((delegate) => keysFromPassphrase(delegate));
const delegatePublicKeys = delegateKeys.map((keys) => keys.publicKey.toString('hex'));
const options = { network: PUB_KEY_HASH, milestone };

/** The finished transaction with a stand-in signature and the id that signature gives it. */
function withFakeSignature(data: TransactionData): TransactionData {
  const signed = { ...data, signature: randomBytes(64).toString('hex') };
  return { ...signed, id: transactionId(signed) };
}

const nonces = new Array<bigint>(SENDERS).fill(0n);
function nextTransaction(n: number): TransactionData {
  const sender = n % SENDERS;
  const nonce = (nonces[sender] = (nonces[sender] as bigint) + 1n);
  const publicKey = senderKeys[sender] as string;
  if (nonce === 1n) {
    const delegate = delegatePublicKeys[sender % delegatePublicKeys.length] as string;
    return withFakeSignature(
      vote(options).vote(delegate).nonce(nonce).senderPublicKey(publicKey).build(),
    );
  }
  if (n % 20 === 0) {
    const payments = multiPayment(options).nonce(nonce).senderPublicKey(publicKey);
    for (let p = 0; p < 10; p++)
      payments.addPayment(recipients[(n + p * 7919) % RECIPIENTS] as string, 1_000);
    return withFakeSignature(payments.build());
  }
  return withFakeSignature(
    transfer(options)
      .recipientId(recipients[(n * 31) % RECIPIENTS] as string)
      .amount(1_000)
      .nonce(nonce)
      .senderPublicKey(publicKey)
      .build(),
  );
}

const db = await openTestStore();
try {
  const genesis = blockFromJson(generated.genesisBlock, { network: PUB_KEY_HASH });
  await db.store.save(genesis);
  console.log(`rebuild bench: storing ${TOTAL_TX} transactions in blocks of ${PER_BLOCK}...`);
  const storeStarted = performance.now();
  let previous: FullBlock = genesis;
  for (let made = 0; made < TOTAL_TX;) {
    const count = Math.min(PER_BLOCK, TOTAL_TX - made);
    const transactions = Array.from({ length: count }, (_, i) => nextTransaction(made + i));
    const height = previous.height + 1;
    previous = forgeBlock({
      transactions,
      previousBlock: previous,
      timestamp: (height - 1) * 8,
      keys: delegateKeys[height % delegateKeys.length]!,
      milestones,
    });
    await db.store.save(previous);
    made += count;
  }
  console.log(
    `stored ${TOTAL_TX} transactions in ${previous.height - 1} blocks ` +
      `(${((performance.now() - storeStarted) / 1000).toFixed(0)} s)`,
  );

  const wallets = new WalletRepository();
  const logger = createLogger({ level: 'fatal' });
  const blockProcessor = new BlockProcessor({
    wallets,
    milestones,
    network: { pubKeyHash: PUB_KEY_HASH },
    forgingSchedule: new RoundRobinSchedule(delegatePublicKeys, 8),
    blockStore: db.store,
    logger,
  });
  const before = process.memoryUsage().rss;
  const { height, transactions, ms } = await new StateRebuilder({
    blockStore: db.store,
    blockProcessor,
    wallets,
    logger,
  }).rebuild();
  console.log(
    `boot rebuild: ${transactions} transactions in ${height} blocks in ${(ms / 1000).toFixed(1)} s ` +
      `(${Math.round(transactions / (ms / 1000))} tx/s), ${wallets.size} wallets, ` +
      `rss ${Math.round(process.memoryUsage().rss / 2 ** 20)} MiB (+${Math.round((process.memoryUsage().rss - before) / 2 ** 20)} MiB)`,
  );
} finally {
  await db.close();
}

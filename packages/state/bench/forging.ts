/**
 * Forging path benchmark: pooled transactions on their way into a stored block, in-process on a
 * node of database + state (the testnet preset, its 51 delegates as senders, signatures on the
 * state plugin's two verification workers). The pool is filled with POOL_TRANSFERS signed
 * transfers first (not timed); then, block after block until it is empty:
 * - collect: the forging port's transactions for the next block (what p2p's
 *   getUnconfirmedTransactions answers), through the reply's JSON and schema as the forger's
 *   relay client reads it;
 * - assemble: the forger's cryptoBlockAssembler, as the slot's delegate;
 * - apply: the block accepted as a relay accepts a posted block (chain.acceptBlock), split
 *   into process (read, verified, applied, stored in PostgreSQL, up to the block's last
 *   `transaction.applied` event) and pool told (what the block took and what it invalidated
 *   dropped from the pool, every waiting transaction judged again).
 * The socket and the P2P framing are left out. Run: npx tsx packages/state/bench/forging.ts
 * (env POOL_TRANSFERS, default 7,650: 51 blocks of 150).
 */
import { cryptoBlockAssembler } from '@lni/forger';
import {
  addressFromPassphrase,
  addressFromPublicKey,
  keysFromPassphrase,
  loadNetworkConfig,
  Milestones,
  transfer,
  type KeyPair,
  type TransactionData,
} from '@lni/crypto';
import databasePlugin from '@lni/database';
import type { Plugin } from '@lni/kernel';
import { startTestKernel } from '@lni/kernel/testing';
import type { Chain, ForgingSource } from '@lni/state/contracts';
import { unconfirmedTransactionsReplySchema } from '@lni/p2p/wire';
import { cp, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createTestDatabase } from '../../../test/support/postgres.js';
import type { FullBlock } from '../src/blocks/block-store.js';
import type { RoundKeeper } from '../src/rounds/round-keeper.js';
import { statePlugin } from '../src/plugin.js';
import { quantile } from '../../../test/support/quantile.js';

const TRANSFERS = Number(process.env.POOL_TRANSFERS ?? 7_650);
const PER_REQUEST = 40;

const testnet = join(import.meta.dirname, '../../cli/networks/testnet');
const network = loadNetworkConfig(join(testnet, 'crypto'));
const { pubKeyHash } = network.network;
const milestones = new Milestones(network.milestones);
const { secrets } = JSON.parse(await readFile(join(testnet, 'delegates.json'), 'utf8')) as {
  secrets: string[];
};
const keys = secrets.map((secret) => keysFromPassphrase(secret));
const recipient = addressFromPassphrase('forging bench recipient', pubKeyHash);

const root = await mkdtemp(join(tmpdir(), 'lni-forging-bench-'));
await cp(join(testnet, 'crypto'), join(root, 'config', 'crypto'), { recursive: true });
const database = await createTestDatabase();
const kernel = await startTestKernel({
  plugins: [
    { plugin: databasePlugin as Plugin<object>, options: { connection: database.connection } },
    {
      plugin: statePlugin as Plugin<object>,
      options: { pool: { maxTransactions: TRANSFERS, maxPerSender: TRANSFERS } },
    },
  ],
  paths: { config: join(root, 'config'), data: join(root, 'data'), log: join(root, 'log') },
  printLevel: 'fatal',
});

const summary = (label: string, ms: number[]) =>
  `${label} p50 ${quantile(ms, 0.5).toFixed(1)} ms, p99 ${quantile(ms, 0.99).toFixed(1)} ms`;

try {
  const { container } = kernel.app;
  const { walletRepository, blockProcessor, transactionPool } = kernel.cradle;
  const forging = container.resolve<ForgingSource>('forgingSource');
  const chain = container.resolve<Chain>('chain');
  const roundKeeper = container.resolve<RoundKeeper>('roundKeeper');

  // Each delegate pays its share in nonce order, 40 per request as the API takes them.
  const nonces = keys.map(
    (pair) => walletRepository.get(addressFromPublicKey(pair.publicKey, pubKeyHash))?.nonce ?? 0n,
  );
  const signed: TransactionData[] = [];
  for (let n = 0; n < TRANSFERS; n++) {
    const sender = n % keys.length;
    nonces[sender] = (nonces[sender] as bigint) + 1n;
    signed.push(
      transfer({ network: pubKeyHash, milestone: milestones.at(2) })
        .recipientId(recipient)
        .amount(1 + n)
        .nonce(nonces[sender] as bigint)
        .sign(keys[sender] as KeyPair)
        .build(),
    );
  }
  for (let i = 0; i < signed.length; i += PER_REQUEST) {
    await transactionPool.add(signed.slice(i, i + PER_REQUEST));
  }
  console.log(`forging bench: ${transactionPool.size} transfers pooled`);

  const assemble = cryptoBlockAssembler(milestones);
  const stages = {
    collect: [] as number[],
    assemble: [] as number[],
    process: [] as number[],
    reconcile: [] as number[],
  };
  // Events go out once the block is stored, before the pool is told.
  let stored = 0;
  kernel.app.events.on('transaction.applied', () => void (stored = performance.now()));
  const blocks: number[] = [];
  let forged = 0;
  const started = performance.now();
  while (transactionPool.size > 0) {
    const last = blockProcessor.lastBlock as FullBlock;
    const height = last.height + 1;
    const timestamp = roundKeeper.slotTime(roundKeeper.slotOf(last.timestamp, height) + 1, height);
    const delegate = roundKeeper.forgerAt(height, timestamp);
    const t0 = performance.now();
    const reply = JSON.stringify({
      poolSize: forging.poolSize(),
      transactions: await forging.transactionsForForging(),
    });
    const { value, error } = unconfirmedTransactionsReplySchema.validate(JSON.parse(reply));
    if (error) throw error;
    const t1 = performance.now();
    const block = assemble({
      keys: keys.find((pair) => pair.publicKey.toString('hex') === delegate) as KeyPair,
      previousBlock: { id: last.id, height: last.height },
      timestamp,
      reward: BigInt(milestones.at(height).reward),
      transactions: value.transactions,
    });
    const t2 = performance.now();
    const verdict = await chain.acceptBlock({ serialized: block.serialized }, { ip: '127.0.0.1' });
    if (verdict.status !== 'accepted') {
      throw new Error(`block ${height} not accepted: ${JSON.stringify(verdict)}`);
    }
    const t3 = performance.now();
    stages.collect.push(t1 - t0);
    stages.assemble.push(t2 - t1);
    stages.process.push(stored - t2);
    stages.reconcile.push(t3 - stored);
    blocks.push(t3 - t0);
    forged += block.numberOfTransactions;
  }
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `forging path, pool → block → applied and stored: ${Math.round(forged / seconds)} tx/s ` +
      `(${forged} tx in ${blocks.length} blocks, ${seconds.toFixed(2)} s); ` +
      `${summary('block', blocks)}; ${summary('collect', stages.collect)}; ` +
      `${summary('assemble', stages.assemble)}; ${summary('process', stages.process)}; ` +
      `${summary('pool told', stages.reconcile)}`,
  );
} finally {
  await kernel.stop();
  await database.drop();
  await rm(root, { recursive: true, force: true });
}

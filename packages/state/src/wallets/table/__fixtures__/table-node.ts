import {
  addressFromPassphrase,
  forgeBlock,
  generateNetwork,
  keysFromPassphrase,
  Milestones,
  type KeyPair,
  type TransactionData,
} from '@lni/crypto';
import databasePlugin from '@lni/database';
import type { Plugin } from '@lni/kernel';
import { startTestKernel, type TestKernel } from '@lni/kernel/testing';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { FullBlock } from '../../../blocks/block-store.js';
import type { RoundKeeper } from '../../../rounds/round-keeper.js';
import { statePlugin } from '../../../plugin.js';
import type { Wallet } from '../../wallet.js';
import type { WalletRepository } from '../../wallet-repository.js';
import { walletOfRow } from '../../wallet-row.js';

export const PUB_KEY_HASH = 23;
export const TOKEN = 100_000_000n;
export const secret = (n: number) => `wallet table secret ${n}`;
export const ALICE = 'wallet table alice';

// 7 delegates, 5 active: rounds of 5 blocks.
let counter = 0;
const generated = generateNetwork({
  name: 'wallettable',
  delegates: 7,
  activeDelegates: 5,
  pubKeyHash: PUB_KEY_HASH,
  rewardHeight: 2,
  balances: [
    ...Array.from({ length: 7 }, (_, i) => ({
      address: addressFromPassphrase(secret(i + 1), PUB_KEY_HASH),
      amount: BigInt(100 + i) * TOKEN,
    })),
    { address: addressFromPassphrase(ALICE, PUB_KEY_HASH), amount: 10_000n * TOKEN },
  ],
  createSecret: () => secret(counter++),
});
export const milestones = new Milestones(generated.milestones);
const keys = new Map<string, KeyPair>(
  Array.from({ length: 8 }, (_, n) => {
    const pair = keysFromPassphrase(secret(n));
    return [pair.publicKey.toString('hex'), pair];
  }),
);
export const txOptions = { network: PUB_KEY_HASH, milestone: milestones.at(2) };

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ host: '127.0.0.1', user: 'postgres', database: 'postgres' });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * A node of database and state on its own PostgreSQL database, restartable with state options,
 * and a client on the same database for what an operator (or an api node) would do in SQL.
 */
export async function tableNode() {
  const name = `lni_test_${randomBytes(6).toString('hex')}`;
  const root = await mkdtemp(join(tmpdir(), 'lni-wallet-table-'));
  const crypto = join(root, 'config', 'crypto');
  await mkdir(crypto, { recursive: true });
  await writeFile(join(crypto, 'network.json'), JSON.stringify(generated.network));
  await writeFile(join(crypto, 'milestones.json'), JSON.stringify(generated.milestones));
  await writeFile(join(crypto, 'genesisBlock.json'), JSON.stringify(generated.genesisBlock));
  await adminQuery(`CREATE DATABASE ${name}`);
  const connection = { host: '127.0.0.1', username: 'postgres', database: name };
  const sql = new pg.Client({ host: '127.0.0.1', user: 'postgres', database: name });
  await sql.connect();
  let kernel: TestKernel | undefined;
  const paths = { config: join(root, 'config'), data: join(root, 'data'), log: join(root, 'log') };
  const plugins = (options: object = {}) => [
    { plugin: databasePlugin as Plugin<object>, options: { connection } },
    {
      plugin: statePlugin as Plugin<object>,
      options: { verificationWorkers: 0, ...options },
    },
  ];
  const start = async (options: object = {}) => {
    kernel = await startTestKernel({ plugins: plugins(options), paths });
    return kernel;
  };
  const running = () => {
    if (!kernel) throw new Error('the node is not running');
    return kernel;
  };
  const wallets = () => running().app.container.resolve<WalletRepository>('walletRepository');

  return {
    sql,
    paths,
    plugins,
    start,
    running,
    wallets,
    async stop() {
      await kernel?.stop();
      kernel = undefined;
    },
    /** Forges the next block by the delegate whose slot it is, `skip` slots later than the next. */
    async forge(transactions: TransactionData[] = [], skip = 0): Promise<FullBlock> {
      const node = running();
      const last = node.cradle.blockProcessor.lastBlock as FullBlock;
      const timestamp = last.timestamp + 8 * (1 + skip);
      const roundKeeper = node.app.container.resolve<RoundKeeper>('roundKeeper');
      const generator = roundKeeper.forgerAt(last.height + 1, timestamp);
      const block = forgeBlock({
        transactions,
        previousBlock: last,
        timestamp,
        keys: keys.get(generator) as KeyPair,
        milestones,
      });
      await node.cradle.blockProcessor.process(block);
      return block;
    },
    /** The wallets the table holds, as wallets, by address. */
    async tableWallets(): Promise<Map<string, Wallet>> {
      const { rows } = await sql.query(
        'SELECT address, public_key, balance::text AS balance, nonce::text AS nonce, attributes FROM wallets',
      );
      return new Map(rows.map((row) => [row.address as string, walletOfRow(row)]));
    },
    /** Every part of state a replay builds, comparable with toEqual. */
    snapshot() {
      const node = running();
      const roundKeeper = node.app.container.resolve<RoundKeeper>('roundKeeper');
      const last = node.cradle.blockProcessor.lastBlock as FullBlock;
      return {
        supply: node.cradle.ledger.supply(),
        wallets: [...wallets().all()].sort((a, b) => (a.address < b.address ? -1 : 1)),
        elections: [...roundKeeper.elections()],
        timestamps: Array.from({ length: last.height }, (_, i) => roundKeeper.timestampAt(i + 1)),
        last: { height: last.height, id: last.id },
      };
    },
    async dispose() {
      await kernel?.stop();
      await sql.end();
      await adminQuery(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await rm(root, { recursive: true, force: true });
    },
  };
}

export type TableNode = Awaited<ReturnType<typeof tableNode>>;

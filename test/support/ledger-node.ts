import apiPlugin from '@lni/api';
import {
  forgeBlock,
  keysFromPassphrase,
  type BlockData,
  type KeyPair,
  type Milestones,
  type TransactionData,
} from '@lni/crypto';
import databasePlugin from '@lni/database';
import type { Plugin } from '@lni/kernel';
import { startTestKernel, type TestKernel } from '@lni/kernel/testing';
import statePlugin, { type RoundKeeper } from '@lni/state';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase } from './postgres.js';
import { delegateSecrets } from './delegate-secrets.js';

/** The testnet preset the CLI ships: its crypto files and its 51 delegates' secrets. */
export const TESTNET = join(import.meta.dirname, '../../packages/cli/networks/testnet');

/** What the state plugin registers untyped, with the shapes these tests read. */
interface LedgerCradle {
  readonly roundKeeper: RoundKeeper;
  readonly milestones: Milestones;
}

/**
 * A node in-process on the testnet preset: PostgreSQL, the real state and API plugins (and any
 * `extra` plugins, such as a stand-in for p2p), with the chain extended by forging blocks as
 * the scheduled delegate of a slot. The API listens on 127.0.0.1 at a free port.
 */
export interface LedgerNode {
  readonly kernel: TestKernel;
  /** `http://127.0.0.1:<port>/api` */
  readonly api: string;
  readonly milestones: Milestones;
  /** The PostgreSQL database it writes to, made for this node on the local server. */
  readonly databaseName: string;
  readonly databaseConnection: DatabaseConnection;
  /** The next block, with these transactions, in the slot after the last block's or at `timestamp`. */
  forge(
    transactions: readonly TransactionData[],
    timestamp?: number,
  ): Promise<BlockData<TransactionData>>;
  /** The next block in the slot of this moment, as a core node forging alone makes it. */
  forgeNow(transactions?: readonly TransactionData[]): Promise<BlockData<TransactionData>>;
  stop(): Promise<void>;
}

type Options = Readonly<Record<string, unknown>>;
type DatabaseConnection = Awaited<ReturnType<typeof createTestDatabase>>['connection'];

/** The node's plugins: PostgreSQL, state without workers, the API on loopback, unlimited. */
function ledgerPlugins(connection: DatabaseConnection, apiOptions: Options, stateOptions: Options) {
  return [
    { plugin: databasePlugin as Plugin<object>, options: { connection } },
    {
      plugin: statePlugin as Plugin<object>,
      options: { verificationWorkers: 0, ...stateOptions },
    },
    {
      plugin: apiPlugin as Plugin<object>,
      options: { host: '127.0.0.1', port: 0, rateLimit: { enabled: false }, ...apiOptions },
    },
  ];
}

/** The stopped `node` started again: its plugins on its database and directories. */
export function restartLedgerNode(
  node: Pick<LedgerNode, 'databaseConnection'> & { readonly kernel: Pick<TestKernel, 'paths'> },
  apiOptions: Options = {},
): Promise<TestKernel> {
  return startTestKernel({
    plugins: ledgerPlugins(node.databaseConnection, apiOptions, {}),
    paths: node.kernel.paths,
  });
}

export async function startLedgerNode(
  extra: readonly { plugin: Plugin<object>; options?: Readonly<Record<string, unknown>> }[] = [],
  /** Options of the API plugin besides the loopback address, a free port and no rate limit. */
  apiOptions: Readonly<Record<string, unknown>> = {},
  /** Options of the state plugin besides no verification workers. */
  stateOptions: Readonly<Record<string, unknown>> = {},
  /** Where to write (a replica pair's primary, say); a fresh database on the local server by default. */
  databaseAt?: DatabaseConnection,
): Promise<LedgerNode> {
  const root = await mkdtemp(join(tmpdir(), 'lni-ledger-node-'));
  await cp(join(TESTNET, 'crypto'), join(root, 'config', 'crypto'), { recursive: true });
  const database = databaseAt
    ? { connection: databaseAt, drop: () => Promise.resolve() }
    : await createTestDatabase();
  let kernel: TestKernel;
  try {
    kernel = await startTestKernel({
      plugins: [...ledgerPlugins(database.connection, apiOptions, stateOptions), ...extra],
      paths: { config: join(root, 'config'), data: join(root, 'data'), log: join(root, 'log') },
    });
  } catch (error) {
    await database.drop();
    await rm(root, { recursive: true, force: true });
    throw error;
  }
  const secrets = await delegateSecrets(TESTNET);
  const delegates = new Map<string, KeyPair>(
    secrets.map((secret) => {
      const keys = keysFromPassphrase(secret);
      return [keys.publicKey.toString('hex'), keys];
    }),
  );
  const { roundKeeper, milestones } = kernel.cradle as unknown as LedgerCradle;
  const { blockProcessor } = kernel.cradle;

  const forge = async (transactions: readonly TransactionData[], timestamp?: number) => {
    const last = blockProcessor.lastBlock;
    if (last === undefined) throw new Error('the ledger has no genesis block');
    const height = last.height + 1;
    const at =
      timestamp ?? roundKeeper.slotTime(roundKeeper.slotOf(last.timestamp, height) + 1, height);
    const keys = delegates.get(roundKeeper.forgerAt(height, at));
    if (keys === undefined) throw new Error(`no secret for the forger of height ${height}`);
    const block = forgeBlock({
      transactions: [...transactions],
      previousBlock: last,
      timestamp: at,
      keys,
      milestones,
    });
    await blockProcessor.process(block);
    return block;
  };

  return {
    kernel,
    api: `${kernel.cradle.apiServer.server.info.uri}/api`,
    milestones,
    databaseName: database.connection.database,
    databaseConnection: database.connection,
    forge,
    forgeNow: (transactions = []) => {
      const height = (blockProcessor.lastBlock?.height ?? 0) + 1;
      const slot = roundKeeper.slotOf(roundKeeper.clock.epochTime(), height);
      return forge(transactions, roundKeeper.slotTime(slot, height));
    },
    stop: async () => {
      await kernel.stop();
      await database.drop();
      await rm(root, { recursive: true, force: true });
    },
  };
}

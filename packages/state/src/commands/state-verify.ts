import { loadNetworkConfig } from '@lni/crypto';
import { KernelError, type CommandContext, type PluginCommand } from '@lni/kernel';
import { Presets, SingleBar } from 'cli-progress';
import { join } from 'node:path';
import { BlockProcessor } from '../blocks/block-processor.js';
import { DatabaseBlockStore } from '../blocks/database-block-store.js';
import { StateRebuilder } from '../boot/state-rebuilder.js';
import type { StateOptions } from '../config.js';
import { StateHash } from '../wallets/table/state-hash.js';
import { compareWallets } from '../wallets/table/wallet-comparison.js';
import { readStateHead, type StateHead } from '../wallets/table/wallet-table-writer.js';
import type { Wallet } from '../wallets/wallet.js';
import { walletOfRow, type WalletRow } from '../wallets/wallet-row.js';
import { assembleLedgerCore, ledgerBlockHooks } from '../wiring/assemble-ledger.js';

type Context = CommandContext<StateOptions>;

/**
 * `kernel state:verify`: replays the stored chain into fresh wallets, up to the height the
 * wallets table is at, and compares the two wallet by wallet. The table and its head are read
 * in one snapshot, so a node may keep running (and writing) meanwhile.
 */
export const verifyCommand: PluginCommand<StateOptions> = {
  name: 'verify',
  description:
    'Replays the stored chain and compares it with the wallets table, wallet by wallet; exits non-zero on a difference',
  async run(context) {
    const { head, table } = await readTable(context);
    const replay = await replayTo(context, head);
    const differences = compareWallets(table, replay.wallets);
    for (const { address, field, table: inTable, replay: inReplay } of differences) {
      context.print(
        `${address} ${field}: table ${inTable ?? '(absent)'}, replay ${inReplay ?? '(absent)'}`,
      );
    }
    const supplyDiffers = replay.supply !== head.supply;
    if (supplyDiffers) {
      context.print(`supply: head ${head.supply}, replay ${replay.supply}`);
    }
    context.print(
      `height ${head.height}: ${table.size} wallets in the table, ${replay.wallets.size} replayed, ` +
        `${differences.length} difference(s)${supplyDiffers ? ', supply differs' : ''}`,
    );
    if (differences.length > 0 || supplyDiffers) {
      throw new KernelError(
        'ERR_STATE_VERIFY_DIFFERS',
        `the wallets table differs from the chain at height ${head.height} ` +
          `(${differences.length} field(s)); restart the node with walletTable.load false to rewrite it`,
      );
    }
    const hash = new StateHash();
    hash.reset(table.values());
    if (hash.hex !== head.stateHash) context.print('note: the head state hash is out of date');
  },
};

/** The head and every wallet of the table, in one snapshot. */
async function readTable({ container }: Context) {
  const { database } = container.cradle;
  const read = await database.transaction(async (manager) => {
    await manager.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
    const head = await readStateHead(manager);
    const rows = (await manager.query(
      `SELECT address, public_key, balance::text AS balance, nonce::text AS nonce, attributes
       FROM wallets`,
    )) as WalletRow[];
    return { head, rows };
  });
  if (!read.head) {
    throw new KernelError(
      'ERR_STATE_VERIFY_NO_TABLE',
      'the wallets table was never written (state_head is empty): start the node once',
    );
  }
  const table = new Map<string, Wallet>();
  for (const row of read.rows) table.set(row.address, walletOfRow(row));
  return { head: read.head, table };
}

/** Fresh wallets from the stored blocks up to the head's height, with a progress bar on stderr. */
async function replayTo({ container, options, paths, logger }: Context, head: StateHead) {
  const { database, blockStorage } = container.cradle;
  const network = loadNetworkConfig(join(paths.config, 'crypto'));
  const core = assembleLedgerCore(network, {
    ...options,
    verificationWorkers: 0,
    walletQueries: { ...options.walletQueries, offThread: false },
  });
  const store = new DatabaseBlockStore({ database, blockStorage });
  const processor = new BlockProcessor({
    wallets: core.walletRepository,
    milestones: core.milestones,
    network: { pubKeyHash: network.network.pubKeyHash },
    forgingSchedule: core.roundKeeper,
    blockStore: store,
    logger,
    blockHooks: ledgerBlockHooks(core),
  });
  const bar = new SingleBar(
    { stream: process.stderr, format: 'Replaying the chain [{bar}] {value}/{total} blocks' },
    Presets.shades_classic,
  );
  bar.start(head.height, 0);
  try {
    await new StateRebuilder({
      // The table's height, not the tip: blocks a running node adds meanwhile are not compared.
      blockStore: {
        lastBlock: async () => (await store.blocksInRange(head.height, head.height))[0],
        blocksInRange: (from, to) => store.blocksInRange(from, to),
      },
      blockProcessor: processor,
      wallets: core.walletRepository,
      logger,
      rebuildBatchSize: options.rebuildBatchSize,
      onProgress: (height) => bar.update(height),
    }).rebuild();
  } finally {
    bar.stop();
  }
  const wallets = new Map<string, Wallet>();
  for (const wallet of core.walletRepository.all()) wallets.set(wallet.address, wallet);
  return { wallets, supply: core.supplyCounter.value };
}

export const stateCommands: readonly PluginCommand<StateOptions>[] = [verifyCommand];

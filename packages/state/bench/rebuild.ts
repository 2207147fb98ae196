/**
 * Boot rebuild benchmark: a generated chain of REBUILD_TX transactions (default 1,000,000:
 * transfers, multipayments and votes from 1,000 funded senders to 100,000 recipients) is stored
 * in a fresh PostgreSQL database, then replayed onto empty wallets the way a node boots, by the
 * built package (`npm run build` first). Run: npx tsx packages/state/bench/rebuild.ts
 *
 * Every transaction goes through its handler's rules during the replay (see generated-chain.ts
 * for the chain).
 */
import { createLogger } from '@lni/kernel';
// What is timed comes from the built package, as `kernel start` runs it; the fixtures that set
// the chain up come from the sources.
import { BlockProcessor } from '../dist/blocks/block-processor.js';
import { RoundRobinSchedule } from '../src/blocks/__fixtures__/round-robin-schedule.js';
import { openTestStore } from '../src/blocks/__fixtures__/test-database.js';
import { StateRebuilder } from '../dist/boot/state-rebuilder.js';
import { WalletRepository } from '../dist/wallets/wallet-repository.js';
import {
  delegatePublicKeys,
  milestones,
  PUB_KEY_HASH,
  storeGeneratedChain,
} from './generated-chain.js';

const TOTAL_TX = Number(process.env.REBUILD_TX ?? 1_000_000);
const RECIPIENTS = 100_000;

const db = await openTestStore();
try {
  console.log('rebuild bench:');
  await storeGeneratedChain(db.store, TOTAL_TX, RECIPIENTS);

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

import { asFunction, asValue } from 'awilix';
import { loadNetworkConfig, Milestones } from '@lni/crypto';
import '@lni/database/contracts';
import { definePlugin, describeError, type Container } from '@lni/kernel';
import { MissedSlotStorage, stateSchema } from '@lni/state';
import { BLOCK_COMMITTED_CHANNEL } from '@lni/state/contracts';
import { join } from 'node:path';
import { sqlLedgerConfigSchema, type SqlLedgerOptions } from './config.js';
import { HeadFollower } from './head/head-follower.js';
import { HeadReader } from './head/head-reader.js';
import { HeadCache } from './head/ledger-head.js';
import { SqlWalletSearch } from './search/sql-wallet-search.js';
import { StatementBatches } from './search/statement-batches.js';
import { WalletViews } from './search/wallet-views.js';
import { SqlLedgerReader } from './sql-ledger-reader.js';

declare module '@lni/kernel' {
  interface Cradle {
    /** Follows the writer's head and publishes the ledger's block events (api nodes). */
    readonly headFollower: HeadFollower;
  }
}

/** Each node's unsubscription from commit signals, by container (tests run several nodes). */
const unsubscribes = new WeakMap<Container, () => void>();

/**
 * The ledger of an `api` node, read from PostgreSQL (or a hot standby) instead of held in
 * memory: registers what the API reads from state under the same names (`ledger`,
 * `missedSlots`, `networkConfig`, `milestones`) and follows the head for the live feed.
 */
export const sqlLedgerPlugin = definePlugin<SqlLedgerOptions>({
  name: 'sql-ledger',
  dependsOn: { required: ['database'] },
  configSchema: sqlLedgerConfigSchema,
  checkConfig({ paths }) {
    try {
      loadNetworkConfig(join(paths.config, 'crypto'));
      return [];
    } catch (error) {
      return [describeError(error)];
    }
  },
  register({ container, options, logger, events, paths }) {
    const network = loadNetworkConfig(join(paths.config, 'crypto'));
    const milestones = new Milestones(network.milestones);
    const pubKeyHash = network.network.pubKeyHash;
    const headCache = new HeadCache();
    // The tables this ledger reads are state's: declared so that their migrations are known.
    container.cradle.schemaRegistry.add('state', stateSchema);
    container.register({
      networkConfig: asValue(network),
      milestones: asValue(milestones),
      missedSlots: asFunction(({ database }) => new MissedSlotStorage({ database })).singleton(),
      ledger: asFunction(({ database }) => {
        const views = new WalletViews();
        const statements = new StatementBatches({ database });
        return new SqlLedgerReader({
          walletSearch: new SqlWalletSearch({ database, statements, views }),
          statements,
          lookupTimeoutMs: options.lookupTimeoutMs,
          views,
          headCache,
          milestones,
          pubKeyHash,
        });
      }).singleton(),
      headFollower: asFunction(
        ({ database, blockStorage, roundStorage }) =>
          new HeadFollower({
            reader: new HeadReader({
              database,
              blockStorage,
              roundStorage,
              timeoutMs: options.lookupTimeoutMs,
            }),
            headCache,
            events,
            milestones,
            pubKeyHash,
            logger,
            pollMs: options.pollMs,
            revertWindow: options.revertWindow,
          }),
      ).singleton(),
    });
  },

  async boot({ container }) {
    const follower = container.cradle.headFollower;
    await follower.start();
    if (container.hasRegistration('commitSignals')) {
      const signals = container.cradle.commitSignals;
      // A payload names the block; a reconnect has none. Either way the head is read again.
      unsubscribes.set(
        container,
        signals.on(BLOCK_COMMITTED_CHANNEL, () => void follower.wake()),
      );
    }
  },

  async dispose({ container }) {
    unsubscribes.get(container)?.();
    unsubscribes.delete(container);
    await container.cradle.headFollower.stop();
  },
});

export default sqlLedgerPlugin;

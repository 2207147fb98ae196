import type { ServerRoute } from '@hapi/hapi';
import type { HealthChecks } from '@lni/kernel';
import type { NodeSources } from '../ledger/node-sources.js';
import { blockchainRoutes } from './blockchain.js';
import { blockRoutes } from './blocks.js';
import { delegateRoutes } from './delegates.js';
import { healthRoutes } from './health.js';
import { lockRoutes } from './locks.js';
import { missedSlotRoutes } from './missed-slots.js';
import { nodeRoutes } from './node.js';
import { nodeFeeRoutes } from './node-fees.js';
import { poolRoutes } from './pool.js';
import { rootRoutes } from './root.js';
import { roundRoutes } from './rounds.js';
import { transactionSchemaRoutes } from './transaction-schemas.js';
import { TransactionJson } from './transaction-json.js';
import { transactionRoutes } from './transactions.js';
import { unlockedLockRoutes } from './unlocked-locks.js';
import { walletRoutes } from './wallets.js';
import { resourceJson } from '../resources/json-bytes.js';
import type { ApiSources } from '../sources.js';
import type { WriterLagReport } from '../lag/writer-lag.js';

export interface ResourceRouteOptions {
  readonly sources: ApiSources;
  readonly enabledPlugins: ReadonlySet<string>;
  readonly ports: Readonly<Record<string, number>>;
  readonly version: string;
  /** What `/health` runs: the kernel's registry. */
  readonly healthChecks: HealthChecks;
  /** Whether `/` serves the status page to browsers. */
  readonly statusPage?: boolean;
  /** On an api node: its lag behind the writer, which its sync state reports. */
  readonly writerLag?: () => WriterLagReport | undefined;
}

/**
 * The resource routes of the plugins running in this mode: wallets, delegates, locks and the
 * blockchain need a ledger (`state`, or `sql-ledger` on an api node), transactions and blocks a
 * ledger and `database`, the pool `state`. Services resolve per request, after boot.
 */
export function resourceRoutes(options: ResourceRouteOptions): ServerRoute[] {
  const { sources, enabledPlugins } = options;
  const { required } = sources;
  const has = (name: string) => enabledPlugins.has(name);
  const { ledger } = required;
  const routes: ServerRoute[] = [...rootRoutes(options.statusPage)];
  // The ledger is state's in memory, or sql-ledger's over the writer's tables (an api node).
  const ledgerHere = has('state') || has('sql-ledger');
  if (ledgerHere) {
    const json = resourceJson();
    routes.push(
      ...cachedPerBlock(walletRoutes(ledger, json.wallets)),
      ...cachedPerBlock(delegateRoutes(ledger, json)),
      ...cachedPerBlock(lockRoutes(ledger)),
      ...cachedPerBlock(blockchainRoutes(ledger)),
      ...cachedPerBlock(transactionSchemaRoutes({ ledger, network: required.network })),
    );
  }
  // Without state there is no pool here: the plugin forwards these routes to its upstream.
  if (has('state')) {
    routes.push(
      ...poolRoutes({
        ledger,
        pool: required.pool,
        pubKeyHash: () => required.network().network.pubKeyHash,
      }),
    );
  }
  if (ledgerHere && has('database')) {
    const transactions = required.transactionQuery;
    const transactionSources = { ledger, transactions, json: new TransactionJson() };
    routes.push(
      ...cachedPerBlock(transactionRoutes(transactionSources)),
      ...unlockedLockRoutes(transactionSources),
      ...cachedPerBlock(blockRoutes({ ...transactionSources, blocks: required.blockQuery })),
      ...cachedPerBlock(roundRoutes(required.roundStorage)),
      ...nodeFeeRoutes({ ledger, transactions, now: () => new Date() }),
      ...missedSlotRoutes({ ledger, missedSlots: required.missedSlots }),
    );
  }
  const nodeSources = {
    ...syncSources(sources),
    network: sources.optional.network,
    poolLimits: sources.optional.poolLimits,
    writerLag: options.writerLag,
    ports: options.ports,
    version: options.version,
    now: () => new Date(),
  };
  routes.push(...nodeRoutes(nodeSources));
  routes.push(...healthRoutes(options.healthChecks));
  return routes;
}

/** Where the sync rule reads the last block, the peers and the clock in this node. */
export function syncSources(
  sources: ApiSources,
): Pick<NodeSources, 'lastBlock' | 'peers' | 'now' | 'writerLag'> {
  return {
    lastBlock: () => sources.optional.ledger()?.lastBlock(),
    peers: sources.optional.peers,
    now: () => new Date(),
  };
}

/** Marks routes whose answers change only with the chain's tip (not the pool, peers or clock). */
export function cachedPerBlock(routes: ServerRoute[]): ServerRoute[] {
  return routes.map((route) => {
    const options = route.options;
    if (typeof options === 'function') return route;
    return { ...route, options: { ...options, app: { ...options?.app, cachedPerBlock: true } } };
  });
}

import type { WalletQueries } from '../query/wallet-query-engine.js';
import type { WalletPage, WalletQuery, WalletScope } from '../query/wallet-query.js';
import type { WalletReplica } from './wallet-replica.js';

/** Wallet visits a query may cost on the node's thread: about a millisecond. */
export const INLINE_VISITS = 5_000;

/** Wallet and delegate queries as the API asks them: answered when they can be, in time. */
export interface AsyncWalletQueries {
  wallets(query: WalletQuery, deadline: number): Promise<WalletPage>;
  delegates(query: WalletQuery, deadline: number): Promise<WalletPage>;
}

/**
 * Answers a query on the node's thread when the engine's cost estimate says it visits few
 * wallets (a page by rank, a username, the delegates), and in the replica's worker otherwise
 * (broad ranges, totals over many wallets), so that no query holds the thread that applies
 * blocks and answers the forger for longer than `inlineVisits` visits take. Without a replica
 * every query runs on the node's thread.
 */
export class CostRoutedWalletQueries implements AsyncWalletQueries {
  constructor(
    private readonly deps: {
      readonly walletQueryEngine: WalletQueries;
      readonly walletReplica?: WalletReplica;
      readonly inlineVisits?: number;
    },
  ) {}

  wallets(query: WalletQuery, deadline: number): Promise<WalletPage> {
    return this.#answer('wallets', query, deadline);
  }

  delegates(query: WalletQuery, deadline: number): Promise<WalletPage> {
    return this.#answer('delegates', query, deadline);
  }

  async #answer(scope: WalletScope, query: WalletQuery, deadline: number): Promise<WalletPage> {
    const { walletQueryEngine: engine, walletReplica: replica } = this.deps;
    if (replica === undefined) {
      return scope === 'wallets' ? engine.wallets(query) : engine.delegates(query);
    }
    const inline = engine.answerWithin(scope, query, this.deps.inlineVisits ?? INLINE_VISITS);
    return inline ?? replica.query(scope, query, deadline);
  }
}

import { addressFromPublicKey, type Milestones } from '@lni/crypto';
import type {
  ChainContext,
  LastBlockSummary,
  LedgerReader,
  WalletSearch,
  WalletSearchPage,
  WalletView,
} from '@lni/state/contracts';
import type { HeadCache } from './head/ledger-head.js';
import type { SqlWalletSearch } from './search/sql-wallet-search.js';
import type { WalletLookups } from './search/wallet-lookups.js';
import type { WalletViews } from './search/wallet-views.js';

export interface SqlLedgerReaderDeps {
  readonly walletSearch: SqlWalletSearch;
  /** Wallets by id, read together when they are asked together. */
  readonly lookups: WalletLookups;
  /** The wallet objects kept between reads (shared with the searches). */
  readonly views: WalletViews;
  readonly headCache: HeadCache;
  readonly milestones: Milestones;
  readonly pubKeyHash: number;
}

/**
 * The ledger an api node reads (registered as `ledger`): wallets and delegates from the
 * `wallets` table, the rest from the head the follower keeps.
 */
export class SqlLedgerReader implements LedgerReader {
  readonly #deps: SqlLedgerReaderDeps;

  constructor(deps: SqlLedgerReaderDeps) {
    this.#deps = deps;
  }

  wallets(search: WalletSearch, deadline: number): Promise<WalletSearchPage> {
    return this.#deps.walletSearch.search('wallets', search, deadline);
  }

  delegates(search: WalletSearch, deadline: number): Promise<WalletSearchPage> {
    return this.#deps.walletSearch.search('delegates', search, deadline);
  }

  async findWallet(id: string): Promise<WalletView | undefined> {
    const row = await this.#deps.lookups.find(id);
    return row && this.#deps.views.viewOf(row);
  }

  supply(): bigint {
    return this.#deps.headCache.head?.supply ?? 0n;
  }

  tip(): string | undefined {
    return this.#deps.headCache.head?.blockId;
  }

  lastBlock(): LastBlockSummary | undefined {
    return this.#deps.headCache.head?.lastBlock;
  }

  chainContext(): ChainContext {
    const { headCache, milestones, pubKeyHash } = this.#deps;
    return {
      height: headCache.head?.height ?? 0,
      epochStart: milestones.at(1).epoch,
      addressOf: (publicKey: string) => addressFromPublicKey(publicKey, pubKeyHash),
      usernameOf: (publicKey: string) => headCache.usernameOf(publicKey),
    };
  }
}

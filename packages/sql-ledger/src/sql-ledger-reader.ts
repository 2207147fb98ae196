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
import type { StatementBatches } from './search/statement-batches.js';
import {
  WALLET_TEXT_COLUMNS,
  type WalletTextRow,
  type WalletViews,
} from './search/wallet-views.js';

export interface SqlLedgerReaderDeps {
  readonly walletSearch: SqlWalletSearch;
  /** Wallet lookups asked together are read together (shared with the searches). */
  readonly statements: StatementBatches;
  /** The wallet objects kept between reads (shared with the searches). */
  readonly views: WalletViews;
  readonly headCache: HeadCache;
  readonly milestones: Milestones;
  readonly pubKeyHash: number;
  /** The longest a wallet lookup may run. */
  readonly lookupTimeoutMs: number;
}

// An address first, then a public key, then a username: the in-memory ledger's precedence.
export const FIND_WALLET_SQL =
  `SELECT ${WALLET_TEXT_COLUMNS} ` +
  'FROM wallets WHERE address = $1::text OR public_key = $1::text OR delegate_username = $1::text ' +
  'ORDER BY CASE WHEN address = $1::text THEN 0 WHEN public_key = $1::text THEN 1 ELSE 2 END LIMIT 1';

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
    const [row] = await this.#deps.statements.read<WalletTextRow>(
      this.#deps.lookupTimeoutMs,
      FIND_WALLET_SQL,
      [id],
    );
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

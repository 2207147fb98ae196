import type { DatabaseOptions } from '../config.js';
import type { DatabaseConnection } from '../connection/database.js';
import type { BlockHeader } from '@lni/crypto';
import type { StoredTransaction } from '../records.js';
import {
  BLOCK_COLUMNS,
  blockFromRow,
  TRANSACTION_COLUMNS,
  transactionFromRow,
  type BlockRow,
  type TransactionRow,
} from '../storage/rows.js';
import type { SearchPage, SearchQuery } from './criteria.js';
import { feeStatistics, type FeeStatistic } from './fee-statistics.js';
import { blocksTable, transactionsTable } from './table-specs.js';
import { COUNT_BUDGET, TableSearch } from './table-search.js';

export interface SearchDeps {
  readonly database: DatabaseConnection;
  /** The plugin's options (the search time budget); defaults without them. */
  readonly databaseOptions?: Partial<Pick<DatabaseOptions, 'searchTimeoutMs' | 'poolSize'>>;
}

/** The transactions side of the API: criteria, ordering, paging and totals. */
export class TransactionQuery {
  private readonly table: TableSearch<TransactionRow, StoredTransaction>;
  private readonly database: DatabaseConnection;

  /** `countBudget`: see COUNT_BUDGET (tests lower it). */
  constructor(
    { database, databaseOptions }: SearchDeps,
    { countBudget = COUNT_BUDGET }: { readonly countBudget?: number } = {},
  ) {
    this.database = database;
    this.table = new TableSearch(
      database,
      transactionsTable,
      TRANSACTION_COLUMNS,
      transactionFromRow,
      countBudget,
      databaseOptions?.searchTimeoutMs,
      databaseOptions?.poolSize,
    );
  }

  search(query: SearchQuery): Promise<SearchPage<StoredTransaction>> {
    return this.table.search(query);
  }

  /** Fee statistics per type of the transactions forged at or after `since` (epoch seconds). */
  feeStatistics(since: number): Promise<FeeStatistic[]> {
    return feeStatistics(this.database, since);
  }
}

/** The blocks side of the API. */
export class BlockQuery {
  private readonly table: TableSearch<BlockRow, BlockHeader>;

  constructor({ database, databaseOptions }: SearchDeps) {
    this.table = new TableSearch(
      database,
      blocksTable,
      BLOCK_COLUMNS,
      blockFromRow,
      COUNT_BUDGET,
      databaseOptions?.searchTimeoutMs,
      databaseOptions?.poolSize,
    );
  }

  search(query: SearchQuery): Promise<SearchPage<BlockHeader>> {
    return this.table.search(query);
  }
}

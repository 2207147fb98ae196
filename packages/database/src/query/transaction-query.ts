import type { DatabaseConnection } from '../connection/database.js';
import type { StoredBlock, StoredTransaction } from '../records.js';
import {
  BLOCK_COLUMNS,
  blockFromRow,
  TRANSACTION_COLUMNS,
  transactionFromRow,
  type BlockRow,
  type TransactionRow,
} from '../storage/rows.js';
import type { SearchPage, SearchQuery } from './criteria.js';
import { blocksTable, transactionsTable } from './table-specs.js';
import { TableSearch } from './table-search.js';

/** The transactions side of the API: criteria, ordering, paging and exact totals. */
export class TransactionQuery {
  private readonly table: TableSearch<TransactionRow, StoredTransaction>;

  constructor({ database }: { readonly database: DatabaseConnection }) {
    this.table = new TableSearch(
      database,
      transactionsTable,
      TRANSACTION_COLUMNS,
      transactionFromRow,
    );
  }

  search(query: SearchQuery): Promise<SearchPage<StoredTransaction>> {
    return this.table.search(query);
  }
}

/** The blocks side of the API. */
export class BlockQuery {
  private readonly table: TableSearch<BlockRow, StoredBlock>;

  constructor({ database }: { readonly database: DatabaseConnection }) {
    this.table = new TableSearch(database, blocksTable, BLOCK_COLUMNS, blockFromRow);
  }

  search(query: SearchQuery): Promise<SearchPage<StoredBlock>> {
    return this.table.search(query);
  }
}

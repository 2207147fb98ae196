import { SearchTimeoutError } from '@lni/database';
import type { DatabaseConnection } from '@lni/database/contracts';
import { cursorOf, type Wallet } from '@lni/state';
import type { WalletSearch, WalletSearchPage, WalletView } from '@lni/state/contracts';
import type { SearchScope } from './search-fields.js';
import type { StatementBatches } from './statement-batches.js';
import { statementTimeoutOf } from './statement-timeout.js';
import { compileWalletSearch, type CompiledSearch } from './wallet-search-sql.js';
import { WALLET_TEXT_COLUMNS, type WalletTextRow, type WalletViews } from './wallet-views.js';

/** A page's row (all null but the total on the row of an empty page). */
type PageRow<Row> = (Row | { readonly [Column in keyof Row]: null }) & {
  readonly total: string;
};
type VersionRow = Pick<WalletTextRow, 'address' | 'version'>;
/** The one row of a page's versions: `address version address version ...`, null when empty. */
interface VersionsRow {
  readonly total: string;
  readonly page: string | null;
}

/** The rows of a page not kept at their version, read in full by address. */
export const ROWS_BY_ADDRESS_SQL = `SELECT ${WALLET_TEXT_COLUMNS} FROM wallets WHERE address = ANY($1::text[])`;

/** Reads of the versions of a page before it is read in one statement, rows and all. */
const VERSION_ATTEMPTS = 3;

/** PostgreSQL's query_canceled: the statement timeout fired. */
const QUERY_CANCELED = '57014';

/**
 * Wallet and delegate searches answered from the `wallets` table, on the database plugin's
 * read-only search connections, cancelled by PostgreSQL at the deadline. A page is read as the
 * addresses and row versions of its wallets, with the total, in one statement (one snapshot);
 * the wallets not kept at those versions are then read by address, and the page is read again
 * if any of them was written in between. So the answer is the first statement's snapshot, and
 * PostgreSQL sends the text of a wallet only when it changed.
 */
export class SqlWalletSearch {
  readonly #database: Pick<DatabaseConnection, 'readStatement'>;
  readonly #statements: StatementBatches;
  readonly #views: WalletViews;

  constructor({
    database,
    statements,
    views,
  }: {
    database: Pick<DatabaseConnection, 'readStatement'>;
    /** Where the pages whose plan does not depend on their values are read together. */
    statements: StatementBatches;
    /** The wallet objects kept between reads (shared with the wallet lookups). */
    views: WalletViews;
  }) {
    this.#database = database;
    this.#statements = statements;
    this.#views = views;
  }

  async search(
    scope: SearchScope,
    search: WalletSearch,
    deadline: number,
  ): Promise<WalletSearchPage> {
    const versions = compileWalletSearch(scope, search);
    for (let attempt = 0; attempt < VERSION_ATTEMPTS; attempt += 1) {
      const rows = await this.#read<VersionsRow>(deadline, versions);
      const wallets = await this.#walletsAt(versionsOf(rows[0]?.page ?? null), deadline);
      if (wallets !== undefined) return pageOf(versions, rows, wallets);
    }
    // Written between every pair of reads: the page read whole, in one statement.
    const whole = compileWalletSearch(scope, search, 'rows');
    const rows = await this.#read<PageRow<WalletTextRow>>(deadline, whole);
    return pageOf(
      whole,
      rows,
      rows.filter(isWalletRow).map((row) => this.#views.viewOf(row)),
    );
  }

  /** The wallets at the versions the page read, or undefined if one was written since. */
  async #walletsAt(rows: readonly VersionRow[], deadline: number): Promise<Wallet[] | undefined> {
    const wallets = rows.map((row) => this.#views.keptAt(row.address, row.version));
    const missing = rows.filter((_, index) => wallets[index] === undefined);
    if (missing.length === 0) return wallets as Wallet[];
    const read = await this.#read<WalletTextRow>(deadline, {
      text: ROWS_BY_ADDRESS_SQL,
      values: [missing.map((row) => row.address)],
      // Left to PostgreSQL, which keeps a plan by the primary key by itself: a connection
      // changes plan mode only in a round trip of its own, and pages with conditions use auto.
      genericPlan: false,
    });
    const byAddress = new Map(read.map((row) => [row.address, row]));
    for (const [index, row] of rows.entries()) {
      if (wallets[index] !== undefined) continue;
      const whole = byAddress.get(row.address);
      if (whole === undefined || whole.version !== row.version) return undefined;
      wallets[index] = this.#views.viewOf(whole);
    }
    return wallets as Wallet[];
  }

  async #read<Row>(
    deadline: number,
    { text, values, genericPlan }: Pick<CompiledSearch, 'text' | 'values' | 'genericPlan'>,
  ): Promise<Row[]> {
    const timeoutMs = statementTimeoutOf(deadline, Date.now());
    // Nobody waits for an answer past its deadline: refused as busy, as the in-memory ledger does.
    if (timeoutMs <= 0) throw new SearchTimeoutError(0);
    try {
      // A page planned once for every value is read with others of its text; one whose
      // conditions' values choose its plan, or that binds an array, is read alone.
      return genericPlan === true
        ? await this.#statements.read<Row>(timeoutMs, text, values, { genericPlan })
        : await this.#database.readStatement<Row>(timeoutMs, text, values, { genericPlan });
    } catch (error) {
      const failed = error as { code?: unknown; driverError?: { code?: unknown } };
      if ((failed.driverError?.code ?? failed.code) === QUERY_CANCELED) {
        throw new SearchTimeoutError(timeoutMs);
      }
      throw error;
    }
  }
}

function versionsOf(page: string | null): VersionRow[] {
  if (page === null) return [];
  const parts = page.split(' ');
  const rows: VersionRow[] = [];
  for (let i = 0; i < parts.length; i += 2) {
    rows.push({ address: parts[i] as string, version: parts[i + 1] as string });
  }
  return rows;
}

function isWalletRow<Row extends { readonly address: string }>(
  row: PageRow<Row>,
): row is Row & { readonly total: string } {
  return row.address !== null;
}

/** The page: its wallets, the exact total (on every row, and on the one row of an empty page). */
function pageOf(
  compiled: CompiledSearch,
  rows: readonly { readonly total: string }[],
  wallets: readonly Wallet[],
): WalletSearchPage {
  const totalCount = Number(rows[0]?.total ?? 0);
  const last = wallets.at(-1);
  const page: WalletSearchPage = { results: wallets as readonly WalletView[], totalCount };
  return last !== undefined && wallets.length === compiled.limit
    ? {
        ...page,
        next: cursorOf(
          compiled.keys.map(({ sql }) => sql.field),
          last,
        ),
      }
    : page;
}

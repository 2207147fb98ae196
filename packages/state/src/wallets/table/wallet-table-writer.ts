import { preparedQuery } from '@lni/database';
import type { DatabaseConnection, EntityManager } from '@lni/database/contracts';
import {
  BLOCK_COMMITTED_CHANNEL,
  type BlockCommittedPayload,
} from '../../contracts/block-committed.js';
import type { Wallet } from '../wallet.js';
import {
  INSERT_WALLET_ROWS,
  TABLE_COLUMNS,
  UPSERT_WALLET_ROWS,
  walletRowColumns,
} from '../wallet-row.js';
import type { PendingHash, StateHash } from './state-hash.js';

/** What a block or a revert changed, ready to be written (WalletTableWriter.changesOf). */
export interface WalletTableChanges {
  readonly tip: { readonly height: number; readonly id: string };
  /** Addresses whose wallets no longer exist. */
  readonly gone: readonly string[];
  /** The state hash once the changes have committed. */
  readonly hash: PendingHash;
  /** The parameters of the one statement that writes the rows, the head and the notification. */
  readonly statement: readonly unknown[];
}

/** The block the table is at, as `state_head` keeps it. */
export interface StateHead {
  readonly height: number;
  readonly blockId: string;
  readonly supply: bigint;
  readonly stateHash: string;
  readonly round: number;
  readonly walletCount: number;
}

export interface WalletTableWriterDeps {
  /** The wallets as the ledger holds them once the block is applied or reverted. */
  readonly wallets: {
    get(address: string): Wallet | undefined;
    all(): Iterable<Wallet>;
    readonly size: number;
  };
  readonly stateHash: StateHash;
  /** All coins in existence at the tip (the supply counter). */
  readonly supply: () => bigint;
  /** The round a height belongs to. */
  readonly roundAt: (height: number) => number;
}

/** Rows per statement of a full write: arrays of a few MB. */
const ROWS_PER_STATEMENT = 5_000;

// The head's parameters follow the rows' arrays, one per column.
const head = (n: number) => `$${TABLE_COLUMNS.length + n}`;
const HEAD_COLUMNS = 'id, height, block_id, supply, state_hash, round, wallet_count, updated_at';
const UPSERT_HEAD = `INSERT INTO state_head (${HEAD_COLUMNS})
  VALUES (1, ${[1, 2, 3, 4, 5, 6].map(head).join(', ')}, now())
  ON CONFLICT (id) DO UPDATE SET height = EXCLUDED.height, block_id = EXCLUDED.block_id,
    supply = EXCLUDED.supply, state_hash = EXCLUDED.state_hash, round = EXCLUDED.round,
    wallet_count = EXCLUDED.wallet_count, updated_at = EXCLUDED.updated_at`;
// Rows, head and NOTIFY in one round trip: every data-modifying CTE runs, whatever the SELECT reads.
// PostgreSQL delivers the NOTIFY at the commit, never for a rolled-back transaction.
const WRITE_ROWS_AND_HEAD = `WITH changed AS (${UPSERT_WALLET_ROWS} RETURNING 1),
  head AS (${UPSERT_HEAD} RETURNING 1)
  SELECT pg_notify(${head(7)}, ${head(8)}) FROM head`;

/**
 * Keeps `wallets` and `state_head` equal to the ledger's wallets, in each block's own database
 * transaction: the wallets a block (or a revert) changed are upserted in one statement, those
 * that no longer exist deleted, the head row moved to the new tip, and BLOCK_COMMITTED_CHANNEL
 * notified. The state hash changes in memory only once the transaction has committed.
 */
export class WalletTableWriter {
  readonly #deps: WalletTableWriterDeps;

  constructor(deps: WalletTableWriterDeps) {
    this.#deps = deps;
  }

  /** The hash of the wallets as last committed (a load resets it from the table). */
  get stateHash(): StateHash {
    return this.#deps.stateHash;
  }

  /**
   * Writes what a block or a revert changed, inside `manager`'s transaction; the returned
   * function, called after the commit, moves the in-memory state hash along.
   */
  async writeChanges(
    manager: EntityManager,
    tip: { readonly height: number; readonly id: string },
    changed: readonly string[],
  ): Promise<() => void> {
    return this.write(manager, this.changesOf(tip, changed));
  }

  /**
   * The rows, deletions and next state hash of what a block or a revert changed, from the
   * ledger's wallets as they are now: work of the processor alone, which a block's save does
   * while PostgreSQL inserts the block.
   */
  changesOf(
    tip: { readonly height: number; readonly id: string },
    changed: readonly string[],
  ): WalletTableChanges {
    const { wallets, stateHash } = this.#deps;
    const changes = changed.map((address) => [address, wallets.get(address)] as const);
    const present: Wallet[] = [];
    const gone: string[] = [];
    for (const [address, wallet] of changes) {
      if (wallet) present.push(wallet);
      else gone.push(address);
    }
    const hash = stateHash.change(changes);
    return { tip, gone, hash, statement: this.#headValues(tip, hash.hex, present) };
  }

  /** Writes `changes` inside `manager`'s transaction; see writeChanges. */
  async write(manager: EntityManager, changes: WalletTableChanges): Promise<() => void> {
    // The genesis block starts the table: rows left from another chain must not survive it.
    if (changes.tip.height === 1) await manager.query('DELETE FROM wallets');
    if (changes.gone.length > 0) {
      await manager.query('DELETE FROM wallets WHERE address = ANY($1::varchar[])', [changes.gone]);
    }
    // Prepared once per connection: the statement is long and the same at every block.
    await preparedQuery(manager, WRITE_ROWS_AND_HEAD, changes.statement);
    return changes.hash.apply;
  }

  /**
   * Replaces the whole table with the ledger's wallets and points the head at `tip`, in one
   * transaction (after a rebuild from the chain).
   */
  async writeAll(
    database: Pick<DatabaseConnection, 'transaction'>,
    tip: { readonly height: number; readonly id: string },
  ): Promise<void> {
    const { wallets, stateHash } = this.#deps;
    stateHash.reset(wallets.all());
    await database.transaction(async (manager) => {
      await manager.query('TRUNCATE wallets');
      let batch: Wallet[] = [];
      for (const wallet of wallets.all()) {
        batch.push(wallet);
        if (batch.length === ROWS_PER_STATEMENT) {
          await preparedQuery(manager, INSERT_WALLET_ROWS, walletRowColumns(batch, tip.height));
          batch = [];
        }
      }
      if (batch.length > 0) {
        await preparedQuery(manager, INSERT_WALLET_ROWS, walletRowColumns(batch, tip.height));
      }
      await preparedQuery(manager, WRITE_ROWS_AND_HEAD, this.#headValues(tip, stateHash.hex, []));
    });
  }

  /** The parameters of WRITE_ROWS_AND_HEAD: the rows of `changed`, the head, the notification. */
  #headValues(
    tip: { readonly height: number; readonly id: string },
    hash: string,
    changed: readonly Wallet[],
  ): unknown[] {
    const { wallets, supply, roundAt } = this.#deps;
    const payload: BlockCommittedPayload = { height: tip.height, id: tip.id };
    return [
      ...walletRowColumns(changed, tip.height),
      tip.height,
      tip.id,
      supply().toString(),
      hash,
      roundAt(tip.height),
      wallets.size,
      BLOCK_COMMITTED_CHANNEL,
      JSON.stringify(payload),
    ];
  }
}

/** The head row, or undefined when the table was never filled. */
export async function readStateHead(
  manager: Pick<EntityManager, 'query'>,
): Promise<StateHead | undefined> {
  const rows = (await manager.query(
    `SELECT height, block_id, supply::text AS supply, state_hash, round, wallet_count
     FROM state_head WHERE id = 1`,
  )) as {
    height: string;
    block_id: string;
    supply: string;
    state_hash: string;
    round: string;
    wallet_count: string;
  }[];
  const row = rows[0];
  return (
    row && {
      height: Number(row.height),
      blockId: row.block_id,
      supply: BigInt(row.supply),
      stateHash: row.state_hash,
      round: Number(row.round),
      walletCount: Number(row.wallet_count),
    }
  );
}

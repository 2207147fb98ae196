import { deserializeTransaction, type BlockHeader, type TransactionData } from '@lni/crypto';
import type { BlockStorage, RoundStorage, Service } from '@lni/database';
import type { DatabaseConnection, EntityManager } from '@lni/database/contracts';
import type { LedgerBlock } from '@lni/state/contracts';

/** The head row as the writer keeps it. */
export interface HeadRow {
  readonly height: number;
  readonly blockId: string;
  readonly supply: bigint;
}

/** What changed above a height, read in one snapshot with the head. */
export interface HeadChanges {
  readonly head: HeadRow | undefined;
  /** Ids of stored blocks at the heights asked about (to find where a revert forked). */
  readonly storedIds: ReadonlyMap<number, string>;
  readonly blocks: readonly LedgerBlock[];
  /** Addresses of the wallets each new block last changed, by height. */
  readonly changed: ReadonlyMap<number, readonly string[]>;
  /** The delegates of each round a new block elected, ranked (balance, then public key). */
  readonly rounds: ReadonlyMap<number, readonly { publicKey: string; balance: bigint }[]>;
  /** Delegate usernames by public key at the head. */
  readonly usernames: ReadonlyMap<string, string>;
}

export interface HeadReaderDeps {
  readonly database: Pick<DatabaseConnection, 'readSnapshot'>;
  readonly blockStorage: Pick<
    Service<BlockStorage>,
    'getBlocksByHeightRange' | 'getSerializedTransactionsByHeightRange'
  >;
  readonly roundStorage: Pick<Service<RoundStorage>, 'getRound'>;
  readonly timeoutMs: number;
}

/** Reads the head and the rows of the blocks above a known height, in one snapshot. */
export class HeadReader {
  readonly #deps: HeadReaderDeps;

  constructor(deps: HeadReaderDeps) {
    this.#deps = deps;
  }

  /** Only the head row and the heights' stored ids, when nothing above is wanted. */
  async head(): Promise<HeadRow | undefined> {
    return this.#deps.database.readSnapshot(this.#deps.timeoutMs, (manager) => headRow(manager));
  }

  /**
   * The head; the stored ids at `checkHeights`; and when the head is not `knownId`, the blocks
   * from `from` to the head with their transactions, the wallets they changed and the rounds
   * `electedRounds(height)` names for them.
   */
  read(request: {
    readonly knownId: string | undefined;
    readonly checkHeights: readonly number[];
    readonly from: number;
    readonly maxBlocks: number;
    readonly electedRound: (height: number) => number | undefined;
  }): Promise<HeadChanges> {
    const { blockStorage, roundStorage } = this.#deps;
    return this.#deps.database.readSnapshot(this.#deps.timeoutMs, async (manager) => {
      const head = await headRow(manager);
      const none = { storedIds: new Map(), blocks: [], changed: new Map(), rounds: new Map() };
      if (head === undefined) return { head, ...none, usernames: new Map() };
      if (head.blockId === request.knownId) return { head, ...none, usernames: new Map() };
      const storedIds = await idsAt(manager, request.checkHeights);
      const to = Math.min(head.height, request.from + request.maxBlocks - 1);
      const [headers, serialized] =
        request.from > to
          ? [[], []]
          : await Promise.all([
              blockStorage.getBlocksByHeightRange(request.from, to, manager),
              blockStorage.getSerializedTransactionsByHeightRange(request.from, to, manager),
            ]);
      const blocks = withTransactions(headers, serialized);
      const rounds = new Map<number, { publicKey: string; balance: bigint }[]>();
      for (const block of blocks) {
        const round = request.electedRound(block.height);
        if (round !== undefined) rounds.set(round, await roundStorage.getRound(round, manager));
      }
      return {
        head,
        storedIds,
        blocks,
        changed: await changedWallets(manager, request.from, to),
        rounds,
        usernames: await usernames(manager),
      };
    });
  }
}

async function headRow(manager: EntityManager): Promise<HeadRow | undefined> {
  const rows = (await manager.query(
    'SELECT height, block_id, supply::text AS supply FROM state_head WHERE id = 1',
  )) as { height: string; block_id: string; supply: string }[];
  const row = rows[0];
  return row && { height: Number(row.height), blockId: row.block_id, supply: BigInt(row.supply) };
}

async function idsAt(manager: EntityManager, heights: readonly number[]) {
  if (heights.length === 0) return new Map<number, string>();
  const rows = (await manager.query('SELECT height, id FROM blocks WHERE height = ANY($1)', [
    heights,
  ])) as { height: string; id: string }[];
  return new Map(rows.map((row) => [Number(row.height), row.id]));
}

async function changedWallets(manager: EntityManager, from: number, to: number) {
  const changed = new Map<number, string[]>();
  if (from > to) return changed;
  const rows = (await manager.query(
    'SELECT updated_height, address FROM wallets WHERE updated_height BETWEEN $1 AND $2 ORDER BY address',
    [from, to],
  )) as { updated_height: string; address: string }[];
  for (const row of rows) {
    const height = Number(row.updated_height);
    const list = changed.get(height);
    if (list) list.push(row.address);
    else changed.set(height, [row.address]);
  }
  return changed;
}

async function usernames(manager: EntityManager): Promise<Map<string, string>> {
  const rows = (await manager.query(
    'SELECT public_key, delegate_username FROM wallets WHERE delegate_username IS NOT NULL AND public_key IS NOT NULL',
  )) as { public_key: string; delegate_username: string }[];
  return new Map(rows.map((row) => [row.public_key, row.delegate_username]));
}

function withTransactions(
  headers: readonly BlockHeader[],
  serialized: readonly { blockHeight: number; serialized: Uint8Array }[],
): LedgerBlock[] {
  const byHeight = new Map<number, TransactionData[]>();
  for (const { blockHeight, serialized: bytes } of serialized) {
    const list = byHeight.get(blockHeight) ?? [];
    list.push(deserializeTransaction(bytes));
    byHeight.set(blockHeight, list);
  }
  return headers.map((header) => ({ ...header, transactions: byHeight.get(header.height) ?? [] }));
}

import { BlockStorage, type Database } from '@lni/database';
import type { EntityManager } from '@lni/database/contracts';
import { storedTransactionOf } from '@lni/state';
import { readChainLine, type ReadBlock } from './chain-verifier.js';
import type { SnapshotManifest } from './manifest.js';
import { readSnapshot } from './snapshot-reader.js';

/** Tables a snapshot part is copied into as it is (PostgreSQL's JSON of each row). */
const ROW_TABLES: Readonly<Record<string, string>> = {
  rounds: 'rounds',
  state_head: 'state_head',
  wallets: 'wallets',
};

const BATCH = 500;

/**
 * The second pass of a restore: the verified snapshot copied into the database in one
 * transaction (the chain through the block storage the node itself writes with). The reader
 * checks every hash again as it goes: a file changed since the first pass rolls it all back.
 */
export async function loadSnapshot(
  database: Database,
  file: string,
  onBlocks: (height: number) => void,
): Promise<SnapshotManifest> {
  const storage = new BlockStorage({ database });
  return database.transaction((manager) =>
    readSnapshot(file, {
      async manifest() {},
      async part(part, lines) {
        if (part.name === 'chain') return loadChain(storage, manager, lines, file, onBlocks);
        const table = ROW_TABLES[part.name];
        if (table === undefined) {
          for await (const _ of lines);
          return;
        }
        let rows: string[] = [];
        const flush = async () => {
          if (rows.length === 0) return;
          await manager.query(
            `INSERT INTO ${table} SELECT * FROM json_populate_recordset(null::${table}, $1::json)`,
            [`[${rows.join(',')}]`],
          );
          rows = [];
        };
        for await (const line of lines) {
          rows.push(line);
          if (rows.length >= BATCH * 10) await flush();
        }
        await flush();
      },
    }),
  );
}

async function loadChain(
  storage: BlockStorage,
  manager: EntityManager,
  lines: AsyncIterable<string>,
  file: string,
  onBlocks: (height: number) => void,
): Promise<void> {
  let batch: ReadBlock[] = [];
  let lineNumber = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    await storage.saveBlocks(
      batch.map(({ block, serialized }) => ({
        block,
        transactions: (block.transactions ?? []).map((tx, sequence) =>
          storedTransactionOf(tx, block, sequence, serialized[sequence]),
        ),
      })),
      manager,
    );
    onBlocks((batch[batch.length - 1] as ReadBlock).block.height);
    batch = [];
  };
  for await (const line of lines) {
    batch.push(readChainLine(line, ++lineNumber, file));
    if (batch.length >= BATCH) await flush();
  }
  await flush();
}

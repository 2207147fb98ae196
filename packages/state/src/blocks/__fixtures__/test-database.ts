import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLogger } from '@lni/kernel';
import {
  applySchemaMigrations,
  BlockStorage,
  Database,
  databaseOptions,
  databaseSchema,
  legacySchema,
  migrateDatabase,
} from '@lni/database';
import {
  calculateRound,
  serializeTransaction,
  transactionToJson,
  type Milestones,
} from '@lni/crypto';
import { stateSchema } from '../../storage/state-schema.js';
import { StateHash } from '../../wallets/table/state-hash.js';
import { WalletTableWriter } from '../../wallets/table/wallet-table-writer.js';
import type { WalletRepository } from '../../wallets/wallet-repository.js';
import type { FullBlock } from '../block-store.js';
import { DatabaseBlockStore } from '../database-block-store.js';
import { createTestDatabase, keptTestDatabase } from '../../../../../test/support/postgres.js';

/**
 * A fresh database with the schema, and a BlockStore over it: on the local PostgreSQL by
 * default, or the embedded PGlite a node without a server runs, in a temporary directory.
 */
export async function openTestStore(backend: 'postgres' | 'embedded' = 'postgres') {
  return openStore((database, logger) => applySchemaMigrations(database, logger, schema), backend);
}

/**
 * The local PostgreSQL database `name`, created with the schema when missing and kept at close,
 * for a benchmark that reuses what an earlier run stored (drop it with `DROP DATABASE`).
 */
export async function openKeptTestStore(name: string) {
  return openStore(
    (database, logger) => applySchemaMigrations(database, logger, schema),
    'postgres',
    name,
  );
}

/** The tables a node running state has: the database plugin's and state's own. */
const schema = [databaseSchema, { owner: 'state', migrations: stateSchema.migrations ?? [] }];

/**
 * A database holding `blocks` as ARK Core 2.7 stored them (its schema; the genesis block's
 * previous block '0'), upgraded by `kernel db:migrate`'s work, and a BlockStore over it.
 */
export async function openUpgradedTestStore(blocks: readonly FullBlock[]) {
  return openStore(async (database, logger) => {
    await database.transaction(async (manager) => {
      for (const statement of legacySchema) await manager.query(statement);
      const query = (sql: string, params: unknown[]) => manager.query(sql, params);
      for (const block of blocks) await insertLegacyBlock(query, block);
    });
    await migrateDatabase(database, { logger, schema });
  });
}

type Query = (sql: string, params: unknown[]) => Promise<unknown>;

async function insertLegacyBlock(query: Query, block: FullBlock): Promise<void> {
  await query(
    'INSERT INTO blocks VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)',
    [
      block.id,
      block.version,
      block.timestamp,
      block.previousBlock ?? '0',
      block.height,
      block.numberOfTransactions,
      String(block.totalAmount),
      String(block.totalFee),
      String(block.reward),
      block.payloadLength,
      block.payloadHash,
      block.generatorPublicKey,
      block.blockSignature,
    ],
  );
  for (const [sequence, tx] of (block.transactions ?? []).entries()) {
    await query(
      `INSERT INTO transactions (id, version, block_id, sequence, "timestamp", sender_public_key,
         recipient_id, type, vendor_field, amount, fee, serialized, type_group, nonce, asset)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
      [
        tx.id,
        tx.version,
        block.id,
        sequence,
        tx.timestamp ?? block.timestamp,
        tx.senderPublicKey,
        tx.recipientId ?? null,
        tx.type,
        tx.vendorField === undefined ? null : Buffer.from(tx.vendorField, 'utf8'),
        String(tx.amount),
        String(tx.fee),
        serializeTransaction(tx),
        tx.typeGroup,
        String(tx.nonce),
        transactionToJson(tx).asset ?? null,
      ],
    );
  }
}

async function openStore(
  prepare: (database: Database, logger: ReturnType<typeof createLogger>) => Promise<unknown>,
  backend: 'postgres' | 'embedded' = 'postgres',
  kept?: string,
) {
  const logger = createLogger({ level: 'fatal' });
  let database: Database;
  let drop: () => Promise<void>;
  let connection: Awaited<ReturnType<typeof createTestDatabase>>['connection'] | undefined;
  if (backend === 'embedded') {
    const directory = await mkdtemp(join(tmpdir(), 'lni-state-db-'));
    database = new Database({
      logger,
      databaseOptions: databaseOptions({}),
      dataDirectory: directory,
    });
    drop = () => rm(directory, { recursive: true, force: true });
  } else {
    const created = kept ? await keptTestDatabase(kept) : await createTestDatabase();
    connection = created.connection;
    database = new Database({
      logger,
      databaseOptions: databaseOptions({ connection: created.connection, retry: { attempts: 1 } }),
      dataDirectory: '/nonexistent',
    });
    drop = created.drop;
  }
  await database.open();
  await prepare(database, logger);
  const blockStorage = new BlockStorage({ database });
  const store = new DatabaseBlockStore({ database, blockStorage });
  return {
    database,
    blockStorage,
    store,
    /** Where the PostgreSQL database is (undefined on PGlite), for a node to open it too. */
    connection,
    /** A store on the same database that also writes the wallets table of `wallets`, as a node's does. */
    withWalletTable(
      wallets: WalletRepository,
      milestones: Milestones,
      supply: () => bigint = () => 0n,
    ): DatabaseBlockStore {
      const walletTable = new WalletTableWriter({
        wallets,
        stateHash: new StateHash(),
        supply,
        roundAt: (height) => calculateRound(height, milestones).round,
      });
      return new DatabaseBlockStore({ database, blockStorage, walletTable });
    },
    async close() {
      await database.close();
      await drop();
    },
  };
}

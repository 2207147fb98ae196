import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createLogger } from '@lni/kernel';
import { applySchemaMigrations, BlockStorage, Database, databaseOptions } from '@lni/database';
import { DatabaseBlockStore } from '../database-block-store.js';

const SERVER = { host: '127.0.0.1', port: 5432, user: 'postgres' };

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ ...SERVER, database: 'postgres' });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * A fresh database with the schema, and a BlockStore over it: on the local PostgreSQL by
 * default, or the embedded PGlite a node without a server runs, in a temporary directory.
 */
export async function openTestStore(backend: 'postgres' | 'embedded' = 'postgres') {
  const logger = createLogger({ level: 'fatal' });
  let database: Database;
  let drop: () => Promise<void>;
  if (backend === 'embedded') {
    const directory = await mkdtemp(join(tmpdir(), 'lni-state-db-'));
    database = new Database({
      logger,
      databaseOptions: databaseOptions({}),
      dataDirectory: directory,
    });
    drop = () => rm(directory, { recursive: true, force: true });
  } else {
    const name = `lni_chain_${randomBytes(6).toString('hex')}`;
    await admin(`CREATE DATABASE ${name}`);
    database = new Database({
      logger,
      databaseOptions: databaseOptions({
        connection: { host: SERVER.host, port: SERVER.port, username: SERVER.user, database: name },
        retry: { attempts: 1 },
      }),
      dataDirectory: '/nonexistent',
    });
    drop = () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
  await database.open();
  await applySchemaMigrations(database, logger);
  const blockStorage = new BlockStorage({ database });
  const store = new DatabaseBlockStore({ database, blockStorage });
  return {
    database,
    blockStorage,
    store,
    async close() {
      await database.close();
      await drop();
    },
  };
}

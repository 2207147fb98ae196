import { randomBytes } from 'node:crypto';
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

/** A fresh database on the local PostgreSQL with the schema, and a BlockStore over it. */
export async function openTestStore() {
  const name = `lni_chain_${randomBytes(6).toString('hex')}`;
  await admin(`CREATE DATABASE ${name}`);
  const logger = createLogger({ level: 'fatal' });
  const database = new Database({
    logger,
    databaseOptions: databaseOptions({
      connection: { host: SERVER.host, port: SERVER.port, username: SERVER.user, database: name },
      retry: { attempts: 1 },
    }),
    dataDirectory: '/nonexistent',
  });
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
      await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

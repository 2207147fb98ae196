import { cp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { TESTNET } from './ledger-node.js';
import { databaseEnv, type ServerConnection } from './postgres.js';

/** A config directory of the testnet whose .env points the node at `connection`. */
export async function nodeConfig(root: string, name: string, connection: ServerConnection) {
  const config = join(root, name, 'config');
  await cp(join(TESTNET, 'crypto'), join(config, 'crypto'), { recursive: true });
  await writeFile(
    join(config, '.env'),
    Object.entries(databaseEnv(connection))
      .map(([key, value]) => `${key}=${value}`)
      .join('\n'),
  );
  return { config, data: join(root, name, 'data'), log: join(root, name, 'log', 'node.log') };
}

/** The chain's height in a database, or null when it has no blocks table yet. */
export async function storedTip(connection: ServerConnection): Promise<number | null> {
  const client = new pg.Client({ ...connection, user: connection.username });
  await client.connect();
  try {
    const table = await client.query(`SELECT to_regclass('blocks') IS NOT NULL AS present`);
    if (!table.rows[0].present) return null;
    return (await client.query('SELECT max(height)::int AS h FROM blocks')).rows[0].h as number;
  } finally {
    await client.end();
  }
}

import { runKernel, type KernelProcess } from '@lni/cli/testing';
import { cp, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import pg from 'pg';
import { TESTNET } from './ledger-node.js';
import { databaseEnv, type ServerConnection } from './postgres.js';

/** Points the node of the config directory `config` at `connection`, through its .env. */
export async function writeDatabaseEnv(config: string, connection: ServerConnection) {
  await writeFile(
    join(config, '.env'),
    Object.entries(databaseEnv(connection))
      .map(([key, value]) => `${key}=${value}`)
      .join('\n'),
  );
}

/** `kernel snapshot:create --to file` of the node at `paths`, as an operator runs it. */
export function createSnapshot(
  paths: { readonly config: string; readonly data: string },
  file: string,
): KernelProcess {
  return runKernel([
    'snapshot:create',
    '--config',
    paths.config,
    '--data',
    paths.data,
    '--to',
    file,
  ]);
}

/** A config directory of the testnet whose .env points the node at `connection`. */
export async function nodeConfig(root: string, name: string, connection: ServerConnection) {
  const config = join(root, name, 'config');
  await cp(join(TESTNET, 'crypto'), join(config, 'crypto'), { recursive: true });
  await writeDatabaseEnv(config, connection);
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

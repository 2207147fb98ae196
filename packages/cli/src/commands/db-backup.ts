import type { Command } from 'commander';
import { rename, rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { closeLogFiles } from '@lni/kernel';
import { dumpEmbeddedDatabase } from '@lni/database';
import { locateNode, type DataToolFlags } from '../data-tools/node-database.js';
import { addNodeOptions } from '../data-tools/node-flags.js';
import { findPgDump, runPgDump } from '../data-tools/pg-dump.js';
import { progressBar } from '../data-tools/progress-bar.js';
import type { CommandResult } from '../program.js';

interface BackupFlags extends DataToolFlags {
  readonly to?: string;
}

export function registerDbBackup(program: Command, result: CommandResult): void {
  addNodeOptions(
    program
      .command('db:backup')
      .description(
        "back up the node's database: PostgreSQL with pg_dump (custom format, while the node runs), the embedded database with PGlite's own dump (node stopped)",
      ),
  )
    .option('--to <file>', 'the backup file (default: ./<network>-<time>.pgdump or .pglite.tar.gz)')
    .action(async (flags: BackupFlags) => {
      result.code = await backUp(flags);
    });
}

async function backUp(flags: BackupFlags): Promise<number> {
  const node = await locateNode(flags);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const name = node.network.network.name;
  try {
    if (node.database.isEmbedded) {
      const directory = node.database.embeddedDirectory;
      const target = resolve(flags.to ?? `${name}-${stamp}.pglite.tar.gz`);
      const bytes = await dumpEmbeddedDatabase(directory, target);
      process.stdout.write(
        `Backed up the embedded database at ${directory} to ${target} (${bytes} bytes); to restore, with the node stopped: mkdir <data>/database && tar xzf ${target} -C <data>/database\n`,
      );
      return 0;
    }
    return await backUpServer(node, resolve(flags.to ?? `${name}-${stamp}.pgdump`));
  } finally {
    await closeLogFiles(node.logger);
  }
}

async function backUpServer(
  node: Awaited<ReturnType<typeof locateNode>>,
  target: string,
): Promise<number> {
  const { database } = node;
  await database.open();
  let serverMajor: number;
  let size: number;
  try {
    const [row] = (await database.manager.query(
      `SELECT current_setting('server_version_num')::int AS number,
              pg_database_size(current_database())::bigint AS size`,
    )) as { number: number; size: string }[];
    serverMajor = Math.floor((row?.number ?? 0) / 10_000);
    size = Number(row?.size ?? 0);
  } finally {
    await database.close();
  }
  const pgDump = await findPgDump(serverMajor);
  // The bar's total is the database's size on disk, more than the compressed dump will be.
  const progress = progressBar('Dumping (of the database size)', size, 'bytes');
  const partial = `${target}.partial`;
  try {
    await runPgDump(pgDump, node.databaseOptions.connection, partial, (bytes) =>
      progress.update(Math.min(bytes, size)),
    );
    await rename(partial, target);
  } finally {
    progress.stop();
    await rm(partial, { force: true });
  }
  process.stdout.write(
    `Backed up ${database.description} (PostgreSQL ${serverMajor}, pg_dump ${pgDump.major}) to ${target}; to restore into a new database: createdb NEW && pg_restore --no-owner -d NEW ${target}\n`,
  );
  return 0;
}

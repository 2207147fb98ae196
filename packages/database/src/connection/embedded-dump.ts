import { PGlite } from '@electric-sql/pglite';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { DatabaseError } from '../errors.js';
import { lockDirectory } from './embedded-server.js';

/**
 * Writes PGlite's own dump of the embedded database in `directory` (a gzip tar of its data
 * directory, `dumpDataDir`) to `target`. It takes the directory's lock first: PGlite runs inside
 * the node's process, so a consistent copy needs the node stopped (a running node holds the
 * lock, and this fails naming its process). Extracting the file into an empty `<data>/database`
 * gives the database back.
 */
export async function dumpEmbeddedDatabase(directory: string, target: string): Promise<number> {
  if (!existsSync(directory)) {
    throw new DatabaseError(`There is no embedded database at ${directory}`);
  }
  const lock = await lockDirectory(directory);
  try {
    const db = await PGlite.create(directory);
    try {
      const dump = await db.dumpDataDir('gzip');
      const bytes = Buffer.from(await dump.arrayBuffer());
      await writeFile(target, bytes);
      return bytes.length;
    } finally {
      await db.close();
    }
  } finally {
    await lock.release();
  }
}

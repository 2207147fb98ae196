import { readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sweepLeftoverDatabases } from './databases.js';
import { sweepLeftoverNamespaces } from './namespaces.js';
import { isLeftover } from './owner.js';

/**
 * Removes what runs that were killed (or crashed before their cleanup) left behind: their
 * namespaces with every process inside, their databases, their socket directories. Runs still
 * going are left alone. Returns what it removed.
 */
export async function sweepLeftovers(): Promise<string[]> {
  const namespaces = await sweepLeftoverNamespaces();
  const databases = await sweepLeftoverDatabases();
  const directories: string[] = [];
  for (const entry of await readdir(tmpdir())) {
    if (isLeftover(entry)) {
      await rm(join(tmpdir(), entry), { recursive: true, force: true });
      directories.push(entry);
    }
  }
  return [
    ...namespaces.map((name) => `namespace ${name}`),
    ...databases.map((name) => `database ${name}`),
    ...directories.map((name) => `directory ${join(tmpdir(), name)}`),
  ];
}

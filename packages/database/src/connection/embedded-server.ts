import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseError } from '../errors.js';

/** PGlite persisted in a directory, served on a free loopback port to the ordinary `pg` driver. */
export interface EmbeddedServer {
  readonly directory: string;
  readonly host: string;
  readonly port: number;
  stop(): Promise<void>;
}

export async function startEmbeddedServer(directory: string): Promise<EmbeddedServer> {
  await mkdir(directory, { recursive: true });
  const lock = await lockDirectory(directory);
  let db: PGlite;
  try {
    db = await PGlite.create(directory);
  } catch (error) {
    await lock.release();
    throw error;
  }
  // One connection at a time: PGlite is single-session, and a multiplexed pool would
  // interleave transactions of different clients.
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 1 });
  try {
    await server.start();
  } catch (error) {
    await db.close();
    await lock.release();
    throw error;
  }
  const address = server.getServerConn();
  const port = Number(address.slice(address.lastIndexOf(':') + 1));
  let stopped = false;
  return {
    directory,
    host: '127.0.0.1',
    port,
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.stop();
      await db.close();
      await lock.release();
    },
  };
}

/**
 * PGlite has no postmaster.pid: two processes opening one directory (a node and
 * `kernel db:migrate`) would corrupt it. A pid file refuses the second; a stale one is taken over.
 */
export async function lockDirectory(directory: string): Promise<{ release(): Promise<void> }> {
  const file = join(directory, 'lni.pid');
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      await writeFile(file, String(process.pid), { flag: 'wx' });
      return { release: () => rm(file, { force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number(await readFile(file, 'utf8').catch(() => '0'));
      if (owner > 0 && owner !== process.pid && isAlive(owner)) {
        throw new DatabaseError(
          `The embedded database at ${directory} is in use by process ${owner}; stop it first`,
        );
      }
      await rm(file, { force: true });
    }
  }
  throw new DatabaseError(`Cannot lock the embedded database at ${directory}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

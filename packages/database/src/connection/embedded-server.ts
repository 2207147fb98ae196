import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { mkdir } from 'node:fs/promises';

/** PGlite persisted in a directory, served on a free loopback port to the ordinary `pg` driver. */
export interface EmbeddedServer {
  readonly directory: string;
  readonly host: string;
  readonly port: number;
  stop(): Promise<void>;
}

export async function startEmbeddedServer(directory: string): Promise<EmbeddedServer> {
  await mkdir(directory, { recursive: true });
  const db = await PGlite.create(directory);
  // One connection at a time: PGlite is single-session, and a multiplexed pool would
  // interleave transactions of different clients.
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 1 });
  try {
    await server.start();
  } catch (error) {
    await db.close();
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
    },
  };
}

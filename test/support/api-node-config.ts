import { cp, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { NodeDirs } from './node-harness.js';
import { connectionOptions, type ServerConnection } from './postgres.js';

export interface ApiNodeConfig {
  /** A config directory whose `crypto/` (the network) the api node takes. */
  readonly networkFrom: string;
  /** Read from (read-only), usually a hot standby. */
  readonly standby: ServerConnection;
  /** LISTENed on for the writer's commit signal (LISTEN is refused on a standby). */
  readonly primary: ServerConnection;
  readonly port: number;
  /** The API of the core or relay node submissions are forwarded to. */
  readonly upstream: string;
  /** More options of the database and API plugins. */
  readonly database?: Readonly<Record<string, unknown>>;
  readonly api?: Readonly<Record<string, unknown>>;
}

/**
 * Writes `<root>/<name>/config` for `kernel start --mode api`: the database plugin on the
 * standby (read-only, LISTEN on the primary), the SQL ledger and the API on 127.0.0.1 without
 * its rate limit. Returns the node's config and data directories.
 */
export async function writeApiNodeConfig(
  root: string,
  name: string,
  config: ApiNodeConfig,
): Promise<NodeDirs> {
  const dirs = { config: join(root, name, 'config'), data: join(root, name, 'data') };
  await mkdir(dirs.config, { recursive: true });
  await cp(join(config.networkFrom, 'crypto'), join(dirs.config, 'crypto'), { recursive: true });
  const plugins = [
    {
      package: '@lni/database',
      options: {
        connection: connectionOptions(config.standby),
        listen: connectionOptions(config.primary),
        readOnly: true,
        ...config.database,
      },
    },
    { package: '@lni/sql-ledger', options: {} },
    {
      package: '@lni/api',
      options: {
        host: '127.0.0.1',
        port: config.port,
        rateLimit: { enabled: false },
        upstream: [config.upstream],
        ...config.api,
      },
    },
  ];
  await writeFile(join(dirs.config, 'app.json'), JSON.stringify({ api: { plugins } }));
  return dirs;
}

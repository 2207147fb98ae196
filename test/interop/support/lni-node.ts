import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ArkInstallation } from './ark-install.js';
import { POSTGRES } from './databases.js';
import { API_PORT, P2P_PORT, type InteropNode, type NodeMode } from './interop-node.js';
import { copyArkTestnetCrypto, writeDelegates, writeJson, writePeers } from './network-files.js';

/** The built `kernel` command (`npm run build` first). */
export const KERNEL_BIN = fileURLToPath(
  new URL('../../../packages/cli/bin/kernel.js', import.meta.url),
);

export interface LniNodeOptions {
  /** Short lowercase name, unique in the run: names its namespace and files. */
  readonly name: string;
  /** Its address in 10.77.0.0/24; the next free one when left out. Ignored for a forger. */
  readonly ip?: string;
  readonly mode: NodeMode;
  /**
   * A config directory to start on as it is. Left out, the harness writes one on ARK testnet's
   * files: `crypto/` from ARK's install, `delegates.json` and `peers.json` from the options
   * below; LNI adds its default `app.json` and `.env` on the first run.
   */
  readonly configDir?: string;
  readonly delegateSecrets?: readonly string[];
  /** Addresses of its seed peers, on the network's P2P port. */
  readonly peers?: readonly string[];
  /** Written as app.json when given (otherwise LNI's default for the network). */
  readonly app?: unknown;
  /** The host's PostgreSQL through its socket (default), or PGlite in the data directory. */
  readonly database?: 'postgres' | 'embedded';
  /** A forger runs in the namespace of this relay node and reaches it on loopback. */
  readonly relay?: InteropNode;
  readonly env?: Readonly<Record<string, string>>;
}

/** Writes the config directory the harness makes when no `configDir` is given. */
export async function writeLniConfig(
  ark: ArkInstallation,
  config: string,
  options: LniNodeOptions,
): Promise<void> {
  await copyArkTestnetCrypto(ark, config);
  // Both files must exist before the first start: for a network named `testnet` LNI would
  // otherwise publish its own testnet preset's delegates and peers, which are not ARK's.
  await writeDelegates(config, options.delegateSecrets ?? []);
  await writePeers(config, options.peers ?? []);
  if (options.app !== undefined) await writeJson(join(config, 'app.json'), options.app);
}

export function lniEnvironment(dir: string, database: string | undefined): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: join(dir, 'home'),
    CORE_P2P_PORT: String(P2P_PORT),
    CORE_API_PORT: String(API_PORT),
    CORE_P2P_HOST: '0.0.0.0',
    CORE_API_HOST: '0.0.0.0',
    CORE_LOG_LEVEL: 'info',
    ...(database === undefined
      ? {}
      : {
          // node-postgres takes the socket directory from `host=`; the URL's host is a
          // placeholder that passes the config schema.
          CORE_DB_URL: `postgres://${POSTGRES.user}@localhost/${database}?host=${POSTGRES.socketDir}`,
        }),
  };
}

export function lniArguments(mode: NodeMode, config: string, data: string): string[] {
  return [KERNEL_BIN, 'start', '--mode', mode, '--config', config, '--data', data];
}

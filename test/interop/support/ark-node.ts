import { cp, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ArkInstallation } from './ark-install.js';
import { POSTGRES } from './databases.js';
import type { InteropNode, NodeMode } from './interop-node.js';
import { copyArkTestnetCrypto, writeDelegates, writeJson, writePeers } from './network-files.js';
import { delegateSecrets } from '../../support/delegate-secrets.js';

export interface ArkNodeOptions {
  /** Short lowercase name, unique in the run (`a`, `relay1`): names its namespace and files. */
  readonly name: string;
  /** Its address in 10.77.0.0/24; the next free one when left out. Ignored for a forger. */
  readonly ip?: string;
  /** `core:run`, `relay:run` or `forger:run`. */
  readonly mode: NodeMode;
  /** Secrets of the delegates it forges for (its delegates.json); core and forger need one. */
  readonly delegateSecrets?: readonly string[];
  /** Addresses of its seed peers (peers.json); ARK does not start without one (not needed by a forger). */
  readonly peers?: readonly string[];
  /** A forger runs in the namespace of this relay (or core) node and talks to it on loopback. */
  readonly relay?: InteropNode;
  /**
   * `--networkStart`: the first node of a new network, which treats itself as synced and forges
   * from the genesis block without waiting for peers (ARK's cold start skips one slot).
   */
  readonly networkStart?: boolean;
  /**
   * `--env=test` (CORE_ENV=test): the network state this node reports is "test", with which a
   * forger forges with no peers at all, and the state machine skips its sync check. Without it
   * a forger needs at least `CORE_P2P_MIN_NETWORK_REACH` peers and a 66 % quorum among them.
   * The relay computes that state, so for a separate forger set it on the relay.
   */
  readonly forgeWithoutQuorum?: boolean;
  /** Options merged into plugins of app.json, by package name (all modes). */
  readonly pluginOptions?: Readonly<Record<string, Record<string, unknown>>>;
  /** Extra environment, over the harness's (e.g. `CORE_P2P_MIN_NETWORK_REACH`). */
  readonly env?: Readonly<Record<string, string>>;
}

/** What the harness sets for every ARK node; `options.env` wins. */
export function arkEnvironment(dir: string, database: string | undefined): Record<string, string> {
  const home = join(dir, 'home');
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    CORE_PATH_CONFIG: join(dir, 'config'),
    CORE_PATH_DATA: join(dir, 'data'),
    CORE_PATH_CACHE: join(dir, 'cache'),
    CORE_PATH_LOG: join(dir, 'log'),
    CORE_PATH_TEMP: join(dir, 'temp'),
    ...(database === undefined
      ? {}
      : {
          // A directory as host makes node-postgres (under TypeORM) use the Unix socket.
          CORE_DB_HOST: POSTGRES.socketDir,
          CORE_DB_PORT: String(POSTGRES.port),
          CORE_DB_USERNAME: POSTGRES.user,
          CORE_DB_DATABASE: database,
        }),
    // ARK's default of 20 peers keeps a small network's forgers from forging.
    CORE_P2P_MIN_NETWORK_REACH: '1',
    // ARK's API allows 100 requests a minute per IP; the tests poll heights four times a second
    // for minutes while a relay catches up, and a 429 then failed the next read.
    CORE_API_RATE_LIMIT_DISABLED: 'true',
    CORE_LOG_LEVEL: 'info',
    CORE_LOG_LEVEL_FILE: 'debug',
  };
}

/** Writes the node's config directory from ARK's own testnet files. */
export async function writeArkConfig(
  ark: ArkInstallation,
  dir: string,
  options: ArkNodeOptions,
): Promise<void> {
  const config = join(dir, 'config');
  await copyArkTestnetCrypto(ark, config);
  await cp(join(ark.testnetConfig, '.env'), join(config, '.env'));
  const app = JSON.parse(await readFile(join(ark.testnetConfig, 'app.json'), 'utf8')) as Record<
    string,
    { plugins: { package: string; options?: Record<string, unknown> }[] }
  >;
  const pluginOptions: Record<string, Record<string, unknown>> = {
    ...options.pluginOptions,
    '@arkecosystem/core-p2p': {
      // Its start-up connectivity checks query these; failures are only logged, but the
      // defaults (public DNS and NTP servers) are outside the test network.
      dns: ['127.0.0.1'],
      ntp: ['127.0.0.1'],
      ...options.pluginOptions?.['@arkecosystem/core-p2p'],
    },
  };
  for (const mode of Object.values(app)) {
    for (const plugin of mode.plugins) {
      const extra = pluginOptions[plugin.package];
      if (extra) plugin.options = { ...plugin.options, ...extra };
    }
  }
  await writeJson(join(config, 'app.json'), app);
  await writeDelegates(config, options.delegateSecrets ?? []);
  await writePeers(config, options.peers ?? []);
}

/** Settings ARK would not start on, or would hang on, checked before anything is created. */
export function arkOptionsProblem(options: ArkNodeOptions): string | undefined {
  if (options.mode !== 'forger' && (options.peers ?? []).length === 0) {
    // ARK 3.9.1 logs "No seed peers defined in peers.json", then loops failing to stop.
    return 'give at least one seed peer: ARK Core does not start with an empty peers.json';
  }
  if (options.mode !== 'relay' && (options.delegateSecrets ?? []).length === 0) {
    return `give at least one delegate secret: ARK's ${options.mode}:run refuses to start without`;
  }
  return undefined;
}

/** The CLI arguments after ARK's `bin/run`. */
export function arkArguments(options: ArkNodeOptions): string[] {
  return [
    `${options.mode}:run`,
    '--network=testnet',
    '--token=ark',
    ...(options.networkStart ? ['--networkStart'] : []),
    ...(options.forgeWithoutQuorum ? ['--env=test'] : []),
  ];
}

/** The secrets of ARK testnet's 51 genesis delegates, from ARK's own delegates.json. */
export async function arkTestnetDelegateSecrets(ark: ArkInstallation): Promise<string[]> {
  return delegateSecrets(ark.testnetConfig);
}

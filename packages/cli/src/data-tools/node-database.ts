import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  createLogger,
  loadEnvironment,
  readAppConfig,
  resolvePaths,
  type Environment,
  type Logger,
  type NodePaths,
  type RunMode,
} from '@lni/kernel';
import { Database, databaseOptionsFromEnvironment, type DatabaseOptions } from '@lni/database';
import { loadNetworkConfig, Milestones, type NetworkConfig } from '@lni/crypto';

/** The flags every data tool takes to find a node, as `start` and `db:migrate` do. */
export interface DataToolFlags {
  readonly mode: RunMode;
  readonly network: string;
  readonly config?: string;
  readonly data?: string;
}

/** A stopped or running node's storage, opened by a data tool (closed by `close`). */
export interface NodeStorage {
  readonly paths: NodePaths;
  readonly env: Environment;
  readonly database: Database;
  readonly databaseOptions: DatabaseOptions;
  readonly network: NetworkConfig;
  readonly milestones: Milestones;
  readonly logger: Logger;
}

/** Where the node of `flags` keeps its config, data and database; nothing is opened. */
export async function locateNode(flags: DataToolFlags): Promise<NodeStorage> {
  const configDir = resolvePaths(flags.network, process.env, flags).config;
  const env = loadEnvironment(configDir);
  const paths = resolvePaths(flags.network, env, flags);
  // Warnings only: a data tool's own lines go to stdout, its progress to stderr.
  const logger = createLogger({ level: 'warn', out: process.stderr });
  const network = loadNetworkConfig(join(paths.config, 'crypto'));
  const options = databaseOptionsFromEnvironment(env, await databaseOptions(configDir, flags.mode));
  const database = new Database({ logger, databaseOptions: options, dataDirectory: paths.data });
  return {
    paths,
    env,
    database,
    databaseOptions: options,
    network,
    milestones: new Milestones(network.milestones),
    logger,
  };
}

/** The database plugin's options of `mode` in the config directory's app.json, if any. */
async function databaseOptions(configDir: string, mode: RunMode): Promise<Record<string, unknown>> {
  const file = join(configDir, 'app.json');
  if (!existsSync(file)) return {};
  const app = await readAppConfig(file);
  const entry = app[mode]?.plugins.find((plugin) => plugin.package === '@lni/database');
  return { ...entry?.options };
}

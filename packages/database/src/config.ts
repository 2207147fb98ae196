import Joi from 'joi';
import { ConfigError } from '@lni/kernel';

/** Where PostgreSQL is; with neither `host` nor `url` the node runs the embedded database. */
export interface ConnectionOptions {
  readonly host?: string;
  readonly port: number;
  readonly database: string;
  readonly username: string;
  readonly password?: string;
  /** `postgres://user:pass@host:port/db`; wins over the separate fields. */
  readonly url?: string;
}

export interface DatabaseOptions {
  readonly connection: ConnectionOptions;
  /** Run pending schema migrations at boot (a 2.7 database is never upgraded at boot). */
  readonly migrateOnStart: boolean;
  /** Connections in the pool; the embedded database always uses one. */
  readonly poolSize: number;
  readonly retry: {
    /** Attempts to connect at start before giving up. */
    readonly attempts: number;
    /** How long to keep trying at start, in all. */
    readonly timeoutMs: number;
    readonly initialDelayMs: number;
    readonly maxDelayMs: number;
  };
  /** How often a running node checks that the database still answers. */
  readonly healthCheckIntervalMs: number;
  /** Check heights, chain links and transaction heights at boot. */
  readonly integrityCheck: boolean;
  /** How often to check whether the planner's statistics need refreshing; 0: never. */
  readonly statisticsIntervalMs: number;
  /**
   * The longest an API search (a page and its total) may run in the database before it is
   * cancelled and the request answered 503 with Retry-After.
   */
  readonly searchTimeoutMs: number;
  /**
   * Read only (an `api` node, possibly on a hot standby): no migrations and no writes; boot
   * checks that the writer's migrations are there instead.
   */
  readonly readOnly: boolean;
  /**
   * Where `commitSignals` LISTENs: the primary (a standby refuses LISTEN). Default: the
   * connection itself, unless it is a standby.
   */
  readonly listen?: ConnectionOptions;
}

const connectionSchema = Joi.object({
  host: Joi.string().hostname(),
  port: Joi.number().port().default(5432),
  database: Joi.string().default('lni'),
  username: Joi.string().default('postgres'),
  password: Joi.string().allow(''),
  url: Joi.string().uri({ scheme: ['postgres', 'postgresql'] }),
});

export const databaseConfigSchema = Joi.object<DatabaseOptions>({
  connection: connectionSchema.default(),
  migrateOnStart: Joi.boolean().default(true),
  poolSize: Joi.number().integer().min(1).max(100).default(10),
  retry: Joi.object({
    attempts: Joi.number().integer().min(1).default(10),
    timeoutMs: Joi.number().integer().min(0).default(20_000),
    initialDelayMs: Joi.number().integer().min(1).default(500),
    maxDelayMs: Joi.number().integer().min(1).default(10_000),
  }).default(),
  healthCheckIntervalMs: Joi.number().integer().min(100).default(5_000),
  integrityCheck: Joi.boolean().default(true),
  statisticsIntervalMs: Joi.number().integer().min(0).default(60_000),
  searchTimeoutMs: Joi.number().integer().min(10).default(2_000),
  readOnly: Joi.boolean().default(false),
  // Without a host or url the listen connection would be the embedded database: refused.
  listen: connectionSchema.or('host', 'url'),
});

export const databaseEnvironment = {
  CORE_DB_HOST: 'connection.host',
  CORE_DB_PORT: 'connection.port',
  CORE_DB_DATABASE: 'connection.database',
  CORE_DB_USERNAME: 'connection.username',
  CORE_DB_PASSWORD: 'connection.password',
  CORE_DB_URL: 'connection.url',
  CORE_DB_READ_ONLY: 'readOnly',
  CORE_DB_LISTEN_URL: 'listen.url',
} as const;

/** Validates options given as values (tools and tests that do not go through the kernel). */
export function databaseOptions(input: unknown = {}): DatabaseOptions {
  const { value, error } = databaseConfigSchema.validate(input, { abortEarly: false });
  if (error) throw new ConfigError(`database options: ${error.message}`, { cause: error });
  return value;
}

/**
 * Options for tools outside a running node (`kernel db:migrate`): the CORE_DB_* variables
 * over `base`, validated like the plugin's own.
 */
export function databaseOptionsFromEnvironment(
  env: Readonly<Record<string, string | undefined>>,
  base: Readonly<Record<string, unknown>> = {},
): DatabaseOptions {
  const connection: Record<string, unknown> = { ...(base.connection as object | undefined) };
  for (const [variable, path] of Object.entries(databaseEnvironment)) {
    if (!path.startsWith('connection.')) continue;
    const value = env[variable];
    if (value !== undefined && value !== '') connection[path.slice('connection.'.length)] = value;
  }
  return databaseOptions({ ...base, connection });
}

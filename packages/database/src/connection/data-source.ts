import { DataSource } from 'typeorm';

/** The resolved place to connect to, embedded or not. */
export interface ConnectionTarget {
  readonly host: string;
  readonly port: number;
  readonly database: string;
  readonly username: string;
  readonly password?: string | undefined;
  readonly url?: string | undefined;
  readonly poolSize: number;
  /** Every session read only (`default_transaction_read_only`): a replica's reader. */
  readonly readOnly?: boolean;
}

/** TypeORM entity classes the plugins registered (see SchemaRegistry). */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- TypeORM's own type for entity targets
export type EntityClasses = readonly Function[];

/** The applied migrations (TypeORM's layout); 2.7 used `migrations`, so ours must not collide. */
export const MIGRATIONS_TABLE = 'lni_migrations';

export function createDataSource(
  target: ConnectionTarget,
  entities: EntityClasses = [],
): DataSource {
  return new DataSource({
    type: 'postgres',
    ...(target.url
      ? { url: target.url }
      : {
          host: target.host,
          port: target.port,
          database: target.database,
          username: target.username,
          password: target.password,
        }),
    poolSize: target.poolSize,
    // Migrations run through migration-runner.ts, plugin by plugin, into MIGRATIONS_TABLE.
    entities: [...entities],
    synchronize: false,
    logging: false,
    // One attempt; connectWithRetry bounds the whole wait (a server on a LAN answers in ms).
    extra: {
      connectionTimeoutMillis: 5_000,
      ...(target.readOnly ? { options: '-c default_transaction_read_only=on' } : {}),
    },
  });
}

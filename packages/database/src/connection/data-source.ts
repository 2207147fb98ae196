import { DataSource } from 'typeorm';
import { schemaMigrations } from '../migrations/index.js';

/** The resolved place to connect to, embedded or not. */
export interface ConnectionTarget {
  readonly host: string;
  readonly port: number;
  readonly database: string;
  readonly username: string;
  readonly password?: string | undefined;
  readonly url?: string | undefined;
  readonly poolSize: number;
}

/** TypeORM's own bookkeeping table; 2.7 used `migrations`, so ours must not collide. */
export const MIGRATIONS_TABLE = 'lni_migrations';

export function createDataSource(target: ConnectionTarget): DataSource {
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
    migrations: schemaMigrations,
    migrationsTableName: MIGRATIONS_TABLE,
    migrationsTransactionMode: 'each',
    synchronize: false,
    logging: false,
    // One attempt; connectWithRetry bounds the whole wait (a server on a LAN answers in ms).
    extra: { connectionTimeoutMillis: 5_000 },
  });
}

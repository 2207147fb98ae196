import type pg from 'pg';
import type { ConnectionOptions } from '../config.js';

/** The `pg` driver's settings for a server connection given as the plugin's options. */
export function pgClientConfig(connection: ConnectionOptions): pg.ClientConfig {
  if (connection.url) return { connectionString: connection.url, connectionTimeoutMillis: 5_000 };
  return {
    host: connection.host ?? 'localhost',
    port: connection.port,
    database: connection.database,
    user: connection.username,
    password: connection.password,
    connectionTimeoutMillis: 5_000,
  };
}

/** Where a connection goes, for logs: `host:port/db`, never the password. */
export function describeConnection(connection: ConnectionOptions): string {
  if (connection.url) {
    try {
      const url = new URL(connection.url);
      return `${url.host}${url.pathname}`;
    } catch {
      return 'database URL';
    }
  }
  return `${connection.host ?? 'localhost'}:${connection.port}/${connection.database}`;
}

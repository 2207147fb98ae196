/**
 * The oldest PostgreSQL the node runs on: 12 brought `plan_cache_mode`, which the search
 * connections set (see `SearchPool`). An older server would connect and migrate, then fail
 * every search by address with its own error, so start-up refuses it first.
 */
export const OLDEST_SERVER = { number: 120_000, name: '12' } as const;

/**
 * Why a server of `server_version_num` `versionNumber` cannot hold the node's data, or
 * undefined when it can. `version` is the server's own text (`11.22 (Debian ...)`).
 */
export function unsupportedServer(versionNumber: number, version: string): string | undefined {
  if (versionNumber >= OLDEST_SERVER.number) return undefined;
  return (
    `PostgreSQL ${version.split(' ')[0] ?? version} is too old: LNI needs ${OLDEST_SERVER.name} or later; ` +
    'upgrade the server, or point CORE_DB_HOST or CORE_DB_URL (connection.host, connection.url) at one that is'
  );
}

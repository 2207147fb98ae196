import type { Database } from '@lni/database';
import { adminSocketPath, socketAnswers } from '@lni/kernel';

/**
 * Why the node looks to be running, or undefined. Three signs, any one enough: its admin socket
 * (`adminSocketPath`) answers; its embedded database is locked by a live process (opening it
 * fails with that reason, see the database's embedded server); or, on a PostgreSQL server, other
 * sessions are connected to its database (a node, an api node, a replica reader).
 */
export async function runningNodeReason(
  dataDirectory: string,
  database: Database,
): Promise<string | undefined> {
  const socket = adminSocketPath(dataDirectory);
  if (await socketAnswers(socket)) return `its admin socket ${socket} answers`;
  if (database.isEmbedded) return undefined;
  const rows = (await database.manager.query(
    `SELECT count(*)::int AS n FROM pg_stat_activity
     WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
  )) as { n: number }[];
  const others = rows[0]?.n ?? 0;
  return others > 0
    ? `${others} other session(s) are connected to ${database.description}`
    : undefined;
}

import { createHash } from 'node:crypto';
import type { EntityManager } from 'typeorm';

/** What TypeORM's PostgreSQL query runner hands out as its connection: a pg client. */
interface PgClient {
  query(config: {
    name: string;
    text: string;
    values: readonly unknown[];
  }): Promise<{ rows: unknown[] }>;
}

const MAX_NAMES = 10_000;
const names = new Map<string, string>();

/**
 * Runs a statement as a named prepared statement on the manager's connection, so that
 * PostgreSQL parses each distinct statement once per connection and may keep its plan (it keeps
 * a generic plan only when that looks no dearer than planning for the values; see
 * `StatementOptions.genericPlan` for the statements that must keep theirs).
 */
export async function preparedQuery<Row>(
  manager: EntityManager,
  text: string,
  values: readonly unknown[],
): Promise<Row[]> {
  const runner = manager.queryRunner as unknown as { connect(): Promise<PgClient> } | undefined;
  if (runner === undefined) return (await manager.query(text, [...values])) as Row[];
  const client = await runner.connect();
  const { rows } = await client.query({ name: statementName(text), text, values });
  return rows as Row[];
}

/**
 * The name a statement is prepared under: a hash of its text, so that the same shape of search
 * reuses its plan whatever its values.
 */
export function statementName(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `lni_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    // Shapes of search are few; a flood of distinct ones (lists of every length) starts over.
    if (names.size >= MAX_NAMES) names.clear();
    names.set(text, name);
  }
  return name;
}

import type { EntityManager } from 'typeorm';

/**
 * - `empty`: nothing yet, the migrations create the schema;
 * - `legacy`: a 2.7 database (transactions without `block_height`), to upgrade with
 *   `kernel db:migrate` before a 3.0 node may start;
 * - `current`: the 3.0 schema (possibly with migrations pending).
 */
export type SchemaState = 'empty' | 'legacy' | 'current';

export async function detectSchemaState(manager: EntityManager): Promise<SchemaState> {
  const rows = (await manager.query(
    `SELECT column_name FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = 'transactions'`,
  )) as { column_name: string }[];
  if (rows.length === 0) return 'empty';
  return rows.some((row) => row.column_name === 'block_height') ? 'current' : 'legacy';
}

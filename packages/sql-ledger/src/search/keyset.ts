import type { CursorValues } from '@lni/state';
import type { SqlField } from './search-fields.js';
import type { SqlParameters } from './sql-parameters.js';

/** One key of an ordering: a field and its direction. */
export interface OrderKey {
  readonly sql: SqlField;
  readonly descending: boolean;
}

/**
 * The rows strictly after the position, as SQL: for each key in turn, beyond it, or equal to it
 * and beyond on the rest; the address last. NULLs sort last ascending and first descending
 * (PostgreSQL's default, and the in-memory ledger's), which the cases below spell out, since a
 * row comparison would not.
 */
export function keysetCondition(
  keys: readonly OrderKey[],
  position: CursorValues,
  addressExpression: string,
  parameters: SqlParameters,
): string {
  const primaryDescending = (keys[0] as OrderKey).descending;
  let rest = `${addressExpression} ${primaryDescending ? '<' : '>'} ${parameters.add(position.address, 'text')}`;
  for (let i = keys.length - 1; i >= 0; i -= 1) {
    const { sql, descending } = keys[i] as OrderKey;
    const value = position.values[i] ?? null;
    const column = sql.expression;
    if (value === null) {
      const equal = `${column} IS NULL`;
      rest = descending
        ? `(${column} IS NOT NULL OR (${equal} AND ${rest}))`
        : `(${equal} AND ${rest})`;
      continue;
    }
    const bound = parameters.add(value, sql.cast);
    const beyond = descending
      ? `${column} < ${bound}`
      : `(${column} > ${bound} OR ${column} IS NULL)`;
    // The first key's bound alone, so that an index on it starts the scan at the cursor.
    const start = i === 0 && descending ? `${column} <= ${bound} AND ` : '';
    rest = `(${start}(${beyond} OR (${column} = ${bound} AND ${rest})))`;
  }
  return rest;
}

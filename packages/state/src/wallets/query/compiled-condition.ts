import { WalletQueryError } from '../errors.js';
import { after, before, compareKeys, MISSING, type Bound } from '../field-index.js';
import type { SortedFieldIndex } from '../wallet-store.js';
import type { FieldType, FieldValue, WalletField } from '../fields.js';
import type { Wallet } from '../wallet.js';
import type { WalletCondition } from './wallet-query.js';

/** A condition resolved against its index: the key ranges it covers and a test for one wallet. */
export interface CompiledCondition {
  readonly field: WalletField;
  readonly index: SortedFieldIndex;
  /** Disjoint bound pairs in ascending key order; an undefined start is the index's start. */
  readonly ranges: readonly (readonly [Bound | undefined, Bound])[];
  /** Exact number of indexed wallets the ranges hold. */
  readonly count: number;
  readonly matches: (wallet: Wallet) => boolean;
}

/** A query value in the field's own type; numbers and bigints convert when exact. */
export function coerceValue(field: WalletField, value: unknown, name: string): FieldValue {
  const wrong = (expected: string) =>
    new WalletQueryError(`${name}: expected ${expected}, got ${describe(value)}`, name);
  const type: FieldType = field.type;
  switch (type) {
    case 'string':
      if (typeof value !== 'string') throw wrong('a string');
      return value;
    case 'boolean':
      if (typeof value !== 'boolean') throw wrong('true or false');
      return value;
    case 'bigint':
      if (typeof value === 'bigint') return value;
      if (typeof value === 'number' && Number.isSafeInteger(value)) return BigInt(value);
      throw wrong('an integer');
    case 'number':
      if (typeof value === 'number' && Number.isFinite(value)) return value;
      if (typeof value === 'bigint' && Number.isSafeInteger(Number(value))) return Number(value);
      throw wrong('a number');
  }
}

const describe = (value: unknown): string =>
  typeof value === 'bigint' ? `${value}n` : (JSON.stringify(value) ?? String(value));

export function compileCondition(
  condition: WalletCondition,
  field: WalletField,
  index: SortedFieldIndex,
  name: string,
): CompiledCondition {
  const read = field.read;
  if (condition.kind === 'in') {
    if (!Array.isArray(condition.values) || condition.values.length === 0) {
      throw new WalletQueryError(`${name}: expected at least one value`, name);
    }
    const values = [...new Set(condition.values.map((v) => coerceValue(field, v, name)))].sort(
      compareKeys,
    );
    const ranges = values.map((value) => [before(value), after(value)] as const);
    const set = new Set<FieldValue>(values);
    return {
      field,
      index,
      ranges,
      count: ranges.reduce((sum, [from, to]) => sum + index.count(from, to), 0),
      matches: (wallet) => {
        const value = read(wallet);
        return value !== undefined && set.has(value);
      },
    };
  }
  if (condition.kind !== 'range') {
    throw new WalletQueryError(`${name}: unknown condition kind`, name);
  }
  if (field.type === 'string' || field.type === 'boolean') {
    throw new WalletQueryError(`${name}: a range needs a numeric field`, name);
  }
  const from = condition.from === undefined ? undefined : coerceValue(field, condition.from, name);
  const to = condition.to === undefined ? undefined : coerceValue(field, condition.to, name);
  const lower = from === undefined ? undefined : before(from);
  // Without an upper end the range still stops before the wallets that have no value.
  const upper = to === undefined ? before(MISSING) : after(to);
  const empty = from !== undefined && to !== undefined && from > to;
  return {
    field,
    index,
    ranges: empty ? [] : [[lower, upper] as const],
    count: empty ? 0 : index.count(lower, upper),
    matches: (wallet) => {
      const value = read(wallet);
      return (
        value !== undefined &&
        (from === undefined || value >= from) &&
        (to === undefined || value <= to)
      );
    },
  };
}

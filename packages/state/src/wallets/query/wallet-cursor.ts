import { WalletQueryError } from '../errors.js';
import { compareKeys, MISSING, type IndexKey } from '../field-index.js';
import { compareAddresses, type FieldValue, type WalletField } from '../fields.js';
import type { Wallet } from '../wallet.js';
import type { WalletCursor } from './wallet-query.js';

/**
 * Keyset positions in a wallet ordering: what `meta.next` carries for the wallet and delegate
 * indexes, and how the engine reads one back and tests wallets against it.
 */

/** One key of an ordering: a field and its direction. */
export interface OrderKey {
  readonly field: WalletField;
  readonly descending: boolean;
}

/** A cursor read back: the index key per order field, then the address. */
export interface CursorPosition {
  readonly keys: readonly IndexKey[];
  readonly address: string;
}

/** A cursor's values in its fields' types (null: the wallet had none), then the address. */
export interface CursorValues {
  readonly values: readonly (FieldValue | null)[];
  readonly address: string;
}

/**
 * A wallet's position in an ordering by `fields`, as `meta.next` carries it: JSON-safe values
 * (bigints as strings, booleans as 0/1, null where the wallet has none), the address last. Every
 * ledger (in memory, SQL) writes and reads cursors through this pair, so one node's cursor is
 * another's.
 */
export function cursorOf(fields: readonly WalletField[], wallet: Wallet): WalletCursor {
  return [
    ...fields.map((field) => {
      const value = field.read(wallet);
      if (value === undefined) return null;
      if (typeof value === 'bigint') return value.toString();
      if (typeof value === 'boolean') return value ? 1 : 0;
      return value;
    }),
    wallet.address,
  ];
}

/** A cursor's values read back in the fields' types; a WalletQueryError when malformed. */
export function readCursor(cursor: WalletCursor, fields: readonly WalletField[]): CursorValues {
  const refuse = (why: string): never => {
    throw new WalletQueryError(`cursor: ${why} (take it from meta.next)`, 'cursor');
  };
  if (!Array.isArray(cursor) || cursor.length !== fields.length + 1) {
    refuse(`expected ${fields.length + 1} values for this order`);
  }
  const address = cursor.at(-1);
  if (typeof address !== 'string') return refuse('the last value must be an address');
  const values = fields.map((field, i) => {
    const value = cursor[i];
    if (value === null) return null;
    const typed = typedValue(field.type, value);
    return typed === undefined
      ? refuse(`'${String(value)}' is not a ${field.type} of ${field.path}`)
      : typed;
  });
  return { values, address };
}

/** A cursor as index keys of the order fields, for the in-memory engine. */
export function parseCursor(cursor: WalletCursor, keys: readonly OrderKey[]): CursorPosition {
  const { values, address } = readCursor(
    cursor,
    keys.map(({ field }) => field),
  );
  return { keys: values.map((value) => value ?? MISSING), address };
}

function typedValue(
  type: WalletField['type'],
  value: string | number | undefined,
): FieldValue | undefined {
  switch (type) {
    case 'bigint':
      return typeof value === 'string' && /^-?\d{1,80}$/.test(value) ? BigInt(value) : undefined;
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
    case 'boolean':
      return value === 0 || value === 1 ? value === 1 : undefined;
    case 'string':
      return typeof value === 'string' ? value : undefined;
  }
}

/** Whether a wallet comes strictly after the cursor's position in the ordering. */
export function isBeyond(
  keys: readonly OrderKey[],
  after: CursorPosition,
): (wallet: Wallet) => boolean {
  const primaryDescending = (keys[0] as OrderKey).descending;
  return (wallet) => {
    for (let i = 0; i < keys.length; i += 1) {
      const { field, descending } = keys[i] as OrderKey;
      const order = compareKeys(field.read(wallet) ?? MISSING, after.keys[i] as IndexKey);
      if (order !== 0) return (descending ? -order : order) > 0;
    }
    const order = compareAddresses(wallet.address, after.address);
    return (primaryDescending ? -order : order) > 0;
  };
}

/** The index of the first wallet of a sorted list that passes `test` (all after it do too). */
export function firstIndex(sorted: readonly Wallet[], test: (wallet: Wallet) => boolean): number {
  let [low, high] = [0, sorted.length];
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (test(sorted[middle] as Wallet)) high = middle;
    else low = middle + 1;
  }
  return low;
}

import { WALLET_FIELDS, type FieldType, type FieldValue, type WalletField } from './fields.js';
import type { Wallet, WalletAttributes } from './wallet.js';

/**
 * A wallet as the `wallets` table keeps it: the whole wallet in `attributes` (JSON, amounts as
 * decimal strings) and one column per indexed field (WALLET_FIELDS), so that the wallet and
 * delegate queries of an api node compile to SQL on indexed columns. The state plugin writes the
 * rows with each block; api nodes read them. This module is the one place that knows both shapes.
 */
export interface WalletRow {
  readonly address: string;
  readonly public_key: string | null;
  readonly balance: string;
  readonly nonce: string;
  readonly attributes: Record<string, unknown>;
  /** Height of the block that last changed the wallet. */
  readonly updated_height: number;
  /** The indexed fields beyond the four above, by column (see WALLET_COLUMNS). */
  readonly [column: string]: unknown;
}

/** An indexed wallet field and the column of the `wallets` table that holds it. */
export interface WalletColumn {
  readonly field: WalletField;
  readonly column: string;
  /** The column's PostgreSQL type. */
  readonly sqlType: string;
}

const SQL_TYPES: Readonly<Record<FieldType, string>> = {
  string: 'text',
  bigint: 'numeric(20,0)',
  number: 'double precision',
  boolean: 'boolean',
};

/** `attributes.delegate.voteBalance` → `delegate_vote_balance`, `publicKey` → `public_key`. */
export function columnOfField(path: string): string {
  return path
    .replace(/^attributes\./, '')
    .replace(/\./g, '_')
    .replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
}

/** Every indexed wallet field with its column, in WALLET_FIELDS' order. */
export const WALLET_COLUMNS: readonly WalletColumn[] = WALLET_FIELDS.map((field) => ({
  field,
  column: columnOfField(field.path),
  sqlType: SQL_TYPES[field.type],
}));

/** Every column the writer fills, with its PostgreSQL type, in the order its statements name them. */
export const TABLE_COLUMNS: readonly Pick<WalletColumn, 'column' | 'sqlType'>[] = [
  ...WALLET_COLUMNS,
  { column: 'attributes', sqlType: 'jsonb' },
  { column: 'updated_height', sqlType: 'bigint' },
];

const columnList = TABLE_COLUMNS.map(({ column }) => column).join(', ');
const columnArrays = TABLE_COLUMNS.map(({ sqlType }, i) => `$${i + 1}::${sqlType}[]`).join(', ');

/**
 * Inserts rows given as one array per column (`walletRowColumns`): PostgreSQL reads each array
 * with its column's type, where rows as JSON objects would also carry every column's name and be
 * parsed as JSON before each value is converted (twice the bytes and the server's time).
 */
export const INSERT_WALLET_ROWS = `INSERT INTO wallets (${columnList}) SELECT * FROM unnest(${columnArrays})`;

/** INSERT_WALLET_ROWS replacing the rows of the same addresses. */
export const UPSERT_WALLET_ROWS = `${INSERT_WALLET_ROWS}
  ON CONFLICT (address) DO UPDATE SET ${TABLE_COLUMNS.filter(({ column }) => column !== 'address')
    .map(({ column }) => `${column} = EXCLUDED.${column}`)
    .join(', ')}`;

/**
 * The rows of `wallets`, as changed by the block at `height`, as the parameters of
 * INSERT_WALLET_ROWS: one array per column of TABLE_COLUMNS, the attributes as JSON text.
 */
export function walletRowColumns(wallets: Iterable<Wallet>, height: number): unknown[][] {
  const columns: unknown[][] = TABLE_COLUMNS.map(() => []);
  const attributes = columns[WALLET_COLUMNS.length] as unknown[];
  const heights = columns[WALLET_COLUMNS.length + 1] as unknown[];
  for (const wallet of wallets) {
    WALLET_COLUMNS.forEach(({ field }, i) => {
      (columns[i] as unknown[]).push(columnValue(field.read(wallet)));
    });
    attributes.push(JSON.stringify(wallet.attributes, amountsAsText));
    heights.push(height);
  }
  return columns;
}

/** A field's value as its column holds it: amounts as text, and null where JSON has null. */
function columnValue(value: FieldValue | undefined): string | number | boolean | null {
  if (value === undefined) return null;
  if (typeof value === 'bigint') return String(value);
  if (typeof value === 'number' && !Number.isFinite(value)) return null;
  return value;
}

/** The row of `wallet` as changed by the block at `height`. */
export function walletRowOf(wallet: Wallet, height: number): WalletRow {
  const row: Record<string, unknown> = {
    attributes: JSON.parse(JSON.stringify(wallet.attributes, amountsAsText)) as unknown,
    updated_height: height,
  };
  for (const { field, column } of WALLET_COLUMNS) row[column] = columnValue(field.read(wallet));
  return row as unknown as WalletRow;
}

/** The wallet a row holds (the indexed columns are copies and are not read). */
export function walletOfRow(
  row: Pick<WalletRow, 'address' | 'public_key' | 'balance' | 'nonce' | 'attributes'>,
): Wallet {
  const attributes = reviveAmounts(row.attributes, []) as WalletAttributes;
  const base = {
    address: row.address,
    balance: BigInt(row.balance),
    nonce: BigInt(row.nonce),
    attributes,
  };
  return row.public_key === null ? base : { ...base, publicKey: row.public_key };
}

function amountsAsText(_key: string, value: unknown): unknown {
  return typeof value === 'bigint' ? value.toString() : value;
}

/**
 * Attribute paths whose values are bigint amounts; `*` stands for any key (a lock id). The
 * delegate's last block keeps ARK's block data, whose totals are amounts too.
 */
const AMOUNT_PATHS: readonly (readonly string[])[] = [
  ['delegate', 'voteBalance'],
  ['delegate', 'forgedFees'],
  ['delegate', 'forgedRewards'],
  ['delegate', 'lastBlock', 'totalAmount'],
  ['delegate', 'lastBlock', 'totalFee'],
  ['delegate', 'lastBlock', 'reward'],
  ['htlc', 'lockedBalance'],
  ['htlc', 'locks', '*', 'amount'],
];

function isAmountPath(path: readonly string[]): boolean {
  return AMOUNT_PATHS.some(
    (pattern) =>
      pattern.length === path.length &&
      pattern.every((part, i) => part === '*' || part === path[i]),
  );
}

function reviveAmounts(value: unknown, path: string[]): unknown {
  if (typeof value === 'string' && isAmountPath(path)) return BigInt(value);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const revived: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    revived[key] = reviveAmounts(inner, [...path, key]);
  }
  return revived;
}

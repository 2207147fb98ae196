import { DELEGATE_VIEW_FIELDS, walletField, WalletQueryError, type WalletField } from '@lni/state';
import { WALLET_COLUMNS } from '@lni/state/wallet-row';

/** `wallets`: every wallet; `delegates`: wallets with delegate attributes (resigned ones too). */
export type SearchScope = 'wallets' | 'delegates';

/** An indexed wallet field as the `wallets` table holds it. */
export interface SqlField {
  readonly field: WalletField;
  /** The column as a query compares and orders it: text in code-unit order, as the engine does. */
  readonly expression: string;
  /** The cast of a bound value of the field (amounts travel as decimal text). */
  readonly cast: string;
}

const CASTS: Readonly<Record<WalletField['type'], string>> = {
  string: 'text',
  bigint: 'numeric',
  number: 'float8',
  boolean: 'boolean',
};

const BY_PATH = new Map<string, SqlField>(
  WALLET_COLUMNS.map(({ field, column }) => [
    field.path,
    {
      field,
      // "C" orders by code point, which is JavaScript's code-unit order for every character
      // an address, key or username may hold; the database's own collation may not be.
      expression: field.type === 'string' ? `${column} COLLATE "C"` : column,
      cast: CASTS[field.type],
    },
  ]),
);

/** The field a search names, by wallet path (wallets) or delegate resource name (delegates). */
export function sqlFieldOf(scope: SearchScope, name: unknown, parameter: string): SqlField {
  const path =
    typeof name !== 'string'
      ? undefined
      : scope === 'wallets'
        ? walletField(name)?.path
        : DELEGATE_VIEW_FIELDS[name];
  const field = path === undefined ? undefined : BY_PATH.get(path);
  if (field === undefined) {
    throw new WalletQueryError(
      `${parameter}: '${String(name)}' is not a field of ${scope}`,
      parameter,
    );
  }
  return field;
}

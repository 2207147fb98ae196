import { TransactionTypeGroup, transactionTypeHandler, transactionTypes } from '@lni/crypto';

const coreTypes = transactionTypes().filter((row) => row.typeGroup === TransactionTypeGroup.Core);

/** Core transaction types (type group 1) by the names GET /api/transactions/types gives them. */
export const TYPE_NAMES: Readonly<Record<string, number>> = Object.fromEntries(
  coreTypes.map((row) => [row.name, row.type]),
);

/** The key of each core type in fee tables (milestone `staticFees`, /transactions/fees, /node/fees). */
export const FEE_KEYS: readonly string[] = coreTypes.map((row) => row.feeKey);

/** The fee key of a type, or its number as a string for a type this node does not name. */
export const feeKeyOf = (typeGroup: number, type: number): string =>
  transactionTypeHandler(typeGroup, type)?.feeKey ?? String(type);

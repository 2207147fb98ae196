import { TransactionTypeGroup } from './transaction-data.js';
import type { TransactionTypeHandler } from './type-handler.js';
import {
  delegateRegistrationHandler,
  delegateResignationHandler,
  htlcClaimHandler,
  htlcLockHandler,
  htlcRefundHandler,
  ipfsHandler,
  multiPaymentHandler,
  multiSignatureHandler,
  secondSignatureHandler,
  transferHandler,
  voteHandler,
} from './types/index.js';

/**
 * The transaction-type table: every type this node knows, with its group, number, name, fee key,
 * schema and codec (each row in types/). State's handlers, the API's type names and fee keys and
 * the codecs all read it; a type is added here and nowhere else in crypto.
 */
const TRANSACTION_TYPES: readonly TransactionTypeHandler[] = [
  transferHandler,
  secondSignatureHandler,
  delegateRegistrationHandler,
  voteHandler,
  multiSignatureHandler,
  ipfsHandler,
  multiPaymentHandler,
  delegateResignationHandler,
  htlcLockHandler,
  htlcClaimHandler,
  htlcRefundHandler,
];

/** The core group's rows by type number: the lookup every (de)serialization makes. */
const CORE_BY_TYPE: TransactionTypeHandler[] = [];
for (const row of TRANSACTION_TYPES) {
  if (row.typeGroup === TransactionTypeGroup.Core) CORE_BY_TYPE[row.type] = row;
}

/** The row of a transaction type, or undefined for a group or type this node does not know. */
export function transactionTypeHandler(
  typeGroup: number,
  type: number,
): TransactionTypeHandler | undefined {
  if (typeGroup !== TransactionTypeGroup.Core) return undefined;
  return CORE_BY_TYPE[type];
}

/** Every row of the transaction-type table, by group then type number. */
export function transactionTypes(): readonly TransactionTypeHandler[] {
  return TRANSACTION_TYPES;
}

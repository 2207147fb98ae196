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

const CORE_HANDLERS: readonly TransactionTypeHandler[] = [
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

/** The handler of a core transaction type, or undefined for any other group or type. */
export function transactionTypeHandler(
  typeGroup: number,
  type: number,
): TransactionTypeHandler | undefined {
  if (typeGroup !== TransactionTypeGroup.Core) return undefined;
  return CORE_HANDLERS[type];
}

/** Every core transaction type's handler, by type number. */
export function coreTransactionTypeHandlers(): readonly TransactionTypeHandler[] {
  return CORE_HANDLERS;
}

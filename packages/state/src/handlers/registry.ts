import { TransactionTypeGroup, type TransactionData } from '@lni/crypto';
import { delegateRegistrationHandler } from './delegate-registration.js';
import { delegateResignationHandler } from './delegate-resignation.js';
import { htlcClaimHandler } from './htlc-claim.js';
import { htlcLockHandler } from './htlc-lock.js';
import { htlcRefundHandler } from './htlc-refund.js';
import { ipfsHandler } from './ipfs.js';
import { multiPaymentHandler } from './multi-payment.js';
import { multiSignatureHandler } from './multi-signature.js';
import { secondSignatureHandler } from './second-signature.js';
import { TransactionRuleError } from './transaction-rule-error.js';
import type { TransactionHandler } from './transaction-handler.js';
import { transferHandler } from './transfer.js';
import { voteHandler } from './vote.js';

const HANDLERS = new Map<number, TransactionHandler>(
  [
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
  ].map((handler) => [handler.type, handler]),
);

/** The handler of a core transaction's type (group 1, types 0-10). */
export function handlerFor(tx: TransactionData): TransactionHandler {
  const handler = tx.typeGroup === TransactionTypeGroup.Core ? HANDLERS.get(tx.type) : undefined;
  if (!handler) {
    throw new TransactionRuleError(
      'ERR_TX_UNSUPPORTED_TYPE',
      `type: ${tx.type} of group ${tx.typeGroup} has no handler`,
      'type',
    );
  }
  return handler;
}

import {
  transactionTypeHandler,
  transactionTypes,
  type TransactionData,
  type TransactionTypeHandler,
} from '@lni/crypto';
import { KernelError } from '@lni/kernel';
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

/** State's handlers do not match @lni/crypto's transaction-type table. */
export class HandlerRegistryError extends KernelError {
  constructor(message: string) {
    super('ERR_TX_HANDLERS', message);
  }
}

/**
 * State's rules keyed by the rows of @lni/crypto's transaction-type table (given by the rows'
 * names), and checked complete against it when built: a type the node can decode but not apply
 * is refused at start, not when its first transaction arrives.
 */
export class TransactionHandlers {
  readonly #byRow = new Map<TransactionTypeHandler, TransactionHandler>();

  constructor(
    handlersByName: Readonly<Record<string, TransactionHandler>>,
    table: readonly TransactionTypeHandler[] = transactionTypes(),
  ) {
    const unknown = Object.keys(handlersByName).filter(
      (name) => !table.some((row) => row.name === name),
    );
    if (unknown.length > 0) {
      throw new HandlerRegistryError(
        `state has handlers for ${unknown.join(', ')}, which the transaction-type table does not list`,
      );
    }
    const missing: string[] = [];
    for (const row of table) {
      const handler = handlersByName[row.name];
      if (handler === undefined)
        missing.push(`${row.name} (group ${row.typeGroup}, type ${row.type})`);
      else this.#byRow.set(row, handler);
    }
    if (missing.length > 0) {
      throw new HandlerRegistryError(`state has no handler for ${missing.join(', ')}`);
    }
  }

  /** The handler of a transaction's type; a type outside the table breaks a ledger rule. */
  for(tx: TransactionData): TransactionHandler {
    const row = transactionTypeHandler(tx.typeGroup, tx.type);
    const handler = row && this.#byRow.get(row);
    if (handler === undefined) {
      throw new TransactionRuleError(
        'ERR_TX_UNSUPPORTED_TYPE',
        `type: ${tx.type} of group ${tx.typeGroup} has no handler`,
        'type',
      );
    }
    return handler;
  }
}

/** Built when @lni/state loads: a type of the table without a handler stops the node's start. */
const handlers = new TransactionHandlers({
  Transfer: transferHandler,
  SecondSignature: secondSignatureHandler,
  DelegateRegistration: delegateRegistrationHandler,
  Vote: voteHandler,
  MultiSignature: multiSignatureHandler,
  Ipfs: ipfsHandler,
  MultiPayment: multiPaymentHandler,
  DelegateResignation: delegateResignationHandler,
  HtlcLock: htlcLockHandler,
  HtlcClaim: htlcClaimHandler,
  HtlcRefund: htlcRefundHandler,
});

/** The handler of a transaction's type, from the table's row of its group and type. */
export function handlerFor(tx: TransactionData): TransactionHandler {
  return handlers.for(tx);
}

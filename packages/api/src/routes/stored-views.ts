import { transactionSignatures } from '@lni/crypto';
import type { StoredTransaction } from '@lni/database';
import type { TransactionView } from '../resources/transaction.js';

/**
 * A stored transaction with its signatures, which live in its serialized bytes. Spelled field by
 * field: a page builds a hundred of these, and a spread of the stored record cost several times
 * more than the literal.
 */
export function storedTransactionView(stored: StoredTransaction): TransactionView {
  const { signature, secondSignature, signatures } = transactionSignatures(stored.serialized);
  return {
    id: stored.id,
    blockId: stored.blockId,
    blockHeight: stored.blockHeight,
    version: stored.version,
    type: stored.type,
    typeGroup: stored.typeGroup,
    nonce: stored.nonce,
    senderPublicKey: stored.senderPublicKey,
    recipientId: stored.recipientId,
    amount: stored.amount,
    fee: stored.fee,
    vendorField: stored.vendorField,
    asset: stored.asset,
    signature: signature ?? null,
    secondSignature: secondSignature ?? null,
    signatures: signatures ?? null,
    timestamp: stored.timestamp,
  };
}

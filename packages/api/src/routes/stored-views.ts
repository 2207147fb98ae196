import { transactionSignatures } from '@lni/crypto';
import type { StoredTransaction } from '@lni/database';
import type { TransactionView } from '../resources/ledger-views.js';

/** A stored transaction with its signatures, which live in its serialized bytes. */
export function storedTransactionView(stored: StoredTransaction): TransactionView {
  const { signature, secondSignature, signatures } = transactionSignatures(stored.serialized);
  return {
    ...stored,
    signature: signature ?? null,
    secondSignature: secondSignature ?? null,
    signatures: signatures ?? null,
  };
}

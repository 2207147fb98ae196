import { TransactionRuleError } from './transaction-rule-error.js';
import type { TransactionHandler } from './transaction-handler.js';
import { applyToSender, checkSender, revertForSender } from './sender.js';

export const secondSignatureHandler: TransactionHandler = {
  check(tx, sender, state) {
    if (
      sender.attributes.secondPublicKey !== undefined ||
      sender.attributes.multiSignature !== undefined
    ) {
      throw new TransactionRuleError(
        'ERR_TX_SECOND_SIGNATURE_ALREADY_REGISTERED',
        'asset.signature: the sender already has a second public key or is a multisignature wallet',
        'asset.signature',
      );
    }
    checkSender(tx, sender, state);
  },
  apply(tx, state) {
    applyToSender(tx, state, tx.amount, () => ({
      secondPublicKey: tx.asset?.signature?.publicKey,
    }));
  },
  revert(tx, state) {
    revertForSender(tx, state, tx.amount, () => ({ secondPublicKey: undefined }));
  },
};

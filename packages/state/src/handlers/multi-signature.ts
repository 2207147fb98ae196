import { multiSignatureAddress } from '@lni/crypto';
import { changeWallet } from '../dpos/vote-balances.js';
import { TransactionRuleError } from './transaction-rule-error.js';
import type { LedgerState, TransactionHandler } from './transaction-handler.js';
import { applyToSender, checkSender, revertForSender } from './sender.js';
import type { TransactionData } from '@lni/crypto';

/** ARK 3.0 registers the multisignature on the wallet of the keys' shared address. */
const multiSignatureWallet = (tx: TransactionData, state: LedgerState): string => {
  const asset = tx.asset?.multiSignature as { min: number; publicKeys: readonly string[] };
  return multiSignatureAddress(asset.min, asset.publicKeys, state.pubKeyHash);
};

export const multiSignatureHandler: TransactionHandler = {
  check(tx, sender, state) {
    const asset = tx.asset?.multiSignature;
    if (!asset || asset.min < 1 || asset.min > asset.publicKeys.length) {
      throw new TransactionRuleError(
        'ERR_TX_MULTISIGNATURE',
        'asset.multiSignature.min: must be between 1 and the number of keys',
        'asset.multiSignature.min',
      );
    }
    if (tx.signatures === undefined || tx.signatures.length !== asset.publicKeys.length) {
      throw new TransactionRuleError(
        'ERR_TX_MULTISIGNATURE',
        'signatures: a registration carries one signature per key',
        'signatures',
      );
    }
    const target = state.repository.getOrEmpty(multiSignatureWallet(tx, state));
    if (
      target.attributes.multiSignature !== undefined ||
      sender.attributes.multiSignature !== undefined
    ) {
      throw new TransactionRuleError(
        'ERR_TX_MULTISIGNATURE_ALREADY_REGISTERED',
        'asset.multiSignature: already registered',
        'asset.multiSignature',
      );
    }
    checkSender(tx, { ...sender, attributes: { ...sender.attributes } }, state);
  },
  apply(tx, state) {
    applyToSender(tx, state);
    changeWallet(state.repository, multiSignatureWallet(tx, state), {
      attributes: { multiSignature: tx.asset?.multiSignature },
    });
  },
  revert(tx, state) {
    changeWallet(state.repository, multiSignatureWallet(tx, state), {
      attributes: { multiSignature: undefined },
    });
    revertForSender(tx, state);
  },
};

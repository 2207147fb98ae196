import { TransactionRuleError } from './transaction-rule-error.js';
import type { TransactionHandler } from './transaction-handler.js';
import { applyToSender, checkSender, revertForSender } from './sender.js';

export const ipfsHandler: TransactionHandler = {
  check(tx, sender, state) {
    const hash = tx.asset?.ipfs as string;
    if (sender.attributes.ipfs?.hashes[hash] === true) {
      throw new TransactionRuleError(
        'ERR_TX_IPFS_ALREADY_REGISTERED',
        `asset.ipfs: ${hash} is already registered by the sender`,
        'asset.ipfs',
      );
    }
    checkSender(tx, sender, state);
  },
  apply(tx, state) {
    const hash = tx.asset?.ipfs as string;
    applyToSender(tx, state, tx.amount, (wallet) => ({
      ipfs: { hashes: { ...wallet.attributes.ipfs?.hashes, [hash]: true } },
    }));
  },
  revert(tx, state) {
    const hash = tx.asset?.ipfs as string;
    revertForSender(tx, state, tx.amount, (wallet) => {
      const { [hash]: _removed, ...hashes } = wallet.attributes.ipfs?.hashes ?? {};
      return { ipfs: Object.keys(hashes).length > 0 ? { hashes } : undefined };
    });
  },
};

import type { DelegateDirectory, DirectoryDelegate } from '../contracts/forging.js';
import type { WalletStore } from '../wallets/wallet-store.js';

/** Registered delegates read from the wallets, for a forger in the same process (`delegates`). */
export class WalletDelegateDirectory implements DelegateDirectory {
  constructor(
    private readonly deps: {
      readonly wallets: Pick<WalletStore, 'byPublicKey'>;
      /** Height of the ledger's last block, 0 before the genesis block. */
      readonly height: () => number;
    },
  ) {}

  height(): number {
    return this.deps.height();
  }

  delegate(publicKey: string): DirectoryDelegate | undefined {
    const delegate = this.deps.wallets.byPublicKey(publicKey)?.attributes.delegate;
    return delegate && { username: delegate.username, resigned: delegate.resigned === true };
  }
}

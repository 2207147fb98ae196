import type { BlockHook } from '../blocks/block-hook.js';
import { rankDelegates } from '../dpos/delegate-ranking.js';
import type { WalletStore } from '../wallets/wallet-store.js';

/**
 * Keeps `attributes.delegate.rank` current: re-ranked after every block and every revert, so
 * that votes cast mid-round, new registrations and resignations show in ranks at once.
 */
export class DelegateRanks implements BlockHook {
  constructor(private readonly wallets: WalletStore) {}

  settled(): void {
    rankDelegates(this.wallets);
  }
}

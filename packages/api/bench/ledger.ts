import {
  CostRoutedWalletQueries,
  WalletQueryEngine,
  WalletReplica,
  type WalletRepository,
} from '@lni/state';
import type { LedgerReader } from '@lni/state/contracts';

/**
 * The API's view of a ledger held in memory by the benchmarks: wallets from the state indexes,
 * the costly queries in the off-thread replica as the state plugin answers them (close the
 * replica at the end).
 */
export function benchLedger(
  wallets: WalletRepository,
  chain: Pick<LedgerReader, 'tip' | 'chainContext'>,
): LedgerReader & { close(): Promise<void> } {
  const walletQueryEngine = new WalletQueryEngine({ walletRepository: wallets });
  const walletReplica = new WalletReplica(wallets);
  const queries = new CostRoutedWalletQueries({ walletQueryEngine, walletReplica });
  return {
    wallets: (search, deadline) => queries.wallets(search, deadline),
    delegates: (search, deadline) => queries.delegates(search, deadline),
    close: () => walletReplica.close(),
    findWallet: (id) => wallets.find(id),
    supply: () => 10n ** 17n,
    tip: () => chain.tip(),
    // The benchmarks' chain has one block, forged at the epoch.
    lastBlock: () => ({ id: 'bench', height: chain.chainContext().height, timestamp: 0 }),
    chainContext: () => chain.chainContext(),
  };
}

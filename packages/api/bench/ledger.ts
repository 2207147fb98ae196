import { WalletQueryEngine, type WalletRepository } from '@lni/state';
import type { LedgerReader } from '../src/index.js';

/** The API's view of a ledger held in memory by the benchmarks: wallets from the state indexes. */
export function benchLedger(
  wallets: WalletRepository,
  chain: Pick<LedgerReader, 'tip' | 'chainContext'>,
): LedgerReader {
  const engine = new WalletQueryEngine({ walletRepository: wallets });
  return {
    wallets: (search) => engine.wallets(search),
    delegates: (search) => engine.delegates(search),
    findWallet: (id) => wallets.find(id),
    supply: () => 10n ** 17n,
    tip: () => chain.tip(),
    // The benchmarks' chain has one block, forged at the epoch.
    lastBlock: () => ({ id: 'bench', height: chain.chainContext().height, timestamp: 0 }),
    chainContext: () => chain.chainContext(),
  };
}

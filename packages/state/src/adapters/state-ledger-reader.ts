import { addressFromPublicKey, type Milestones } from '@lni/crypto';
import type { BlockProcessor } from '../blocks/block-processor.js';
import type { AsyncWalletQueries } from '../wallets/replica/cost-routed-queries.js';
import type { WalletStore } from '../wallets/wallet-store.js';
import type { SupplyCounter } from '../blocks/supply-counter.js';
import type {
  ChainContext,
  LastBlockSummary,
  LedgerReader,
  WalletSearch,
} from '../contracts/ledger.js';

/**
 * What the API reads from the ledger (registered as `ledger`): wallets and delegates from the
 * indexes, the supply, and what shaping blocks and transactions needs.
 */
export class StateLedgerReader implements LedgerReader {
  constructor(
    private readonly deps: {
      readonly walletRepository: WalletStore;
      readonly walletQueries: AsyncWalletQueries;
      readonly blockProcessor: Pick<BlockProcessor, 'lastBlock'>;
      readonly supplyCounter: SupplyCounter;
      readonly milestones: Milestones;
      readonly pubKeyHash: number;
    },
  ) {}

  wallets(search: WalletSearch, deadline: number) {
    return this.deps.walletQueries.wallets(search, deadline);
  }

  delegates(search: WalletSearch, deadline: number) {
    return this.deps.walletQueries.delegates(search, deadline);
  }

  findWallet(id: string) {
    return this.deps.walletRepository.find(id);
  }

  supply(): bigint {
    return this.deps.supplyCounter.value;
  }

  tip(): string | undefined {
    return this.deps.blockProcessor.lastBlock?.id;
  }

  lastBlock(): LastBlockSummary | undefined {
    const last = this.deps.blockProcessor.lastBlock;
    return last && { id: last.id, height: last.height, timestamp: last.timestamp };
  }

  chainContext(): ChainContext {
    const { walletRepository, milestones, pubKeyHash } = this.deps;
    return {
      height: this.deps.blockProcessor.lastBlock?.height ?? 0,
      epochStart: milestones.at(1).epoch,
      // A known key's wallet holds its address: a map lookup instead of two hashes.
      addressOf: (publicKey: string) =>
        walletRepository.byPublicKey(publicKey)?.address ??
        addressFromPublicKey(publicKey, pubKeyHash),
      usernameOf: (publicKey: string) =>
        walletRepository.byPublicKey(publicKey)?.attributes.delegate?.username,
    };
  }
}

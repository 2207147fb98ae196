import type { LedgerState } from '../handlers/transaction-handler.js';
import type { FullBlock } from './block-store.js';

/**
 * State that follows whole blocks (DPoS rounds, ranks): called inside the block's wallet
 * checkpoint after its transactions and the generator's credit, so a failure undoes the block.
 * `reverted` must undo exactly what `applied` did.
 */
export interface BlockHook {
  applied(block: FullBlock, state: LedgerState): void;
  reverted(block: FullBlock, state: LedgerState): void;
}

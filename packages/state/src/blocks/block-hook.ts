import type { LedgerState } from '../handlers/transaction-handler.js';
import type { FullBlock } from './block-store.js';

/**
 * State that follows whole blocks (DPoS rounds, ranks). `applied` is called inside the block's
 * wallet checkpoint after its transactions and the generator's credit, so a failure undoes the
 * block; `reverted` must undo exactly what `applied` did. `settled` derives state from all
 * wallets at once (delegate ranks): it runs after a block is applied (inside its checkpoint) and
 * after a run of blocks is reverted, and once after the boot replay rather than per block.
 */
export interface BlockHook {
  applied?(block: FullBlock, state: LedgerState): void;
  reverted?(block: FullBlock, state: LedgerState): void;
  settled?(): void;
}

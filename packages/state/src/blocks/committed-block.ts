import type { SharedTransaction } from '@lni/database/contracts';
import type { FullBlock } from './block-store.js';
import type { AppliedBlockEvent } from './chain-events.js';

/**
 * What each block's database transaction is about, for the plugins that join it
 * (`blockCommit.join`): the block and the events it will publish once committed. A participant
 * writes what must not be lost if the node dies right after the commit (an outbox).
 */
export interface CommittedBlock {
  readonly block: FullBlock;
  readonly events: readonly AppliedBlockEvent[];
}

/** The transaction state stores each applied block in, shared with the plugins that join it. */
export type BlockCommit = Pick<SharedTransaction<CommittedBlock>, 'join' | 'run' | 'joined'>;

import type { SharedTransaction } from '@lni/database/contracts';
import type { EventMap } from '@lni/kernel';
import type { LedgerBlock } from './events.js';
import './events.js';

/** A slot its delegate let pass; `height` is the block after the gap. */
export interface MissedSlot {
  readonly slot: number;
  readonly height: number;
  readonly round: number;
  /** Start of the slot, seconds since the network epoch. */
  readonly timestamp: number;
  readonly publicKey: string;
}

/** The missed slots the ledger keeps, as the API pages them; registered as `missedSlots`. */
export interface MissedSlotReader {
  /** A delegate's missed slots, newest first, and how many there are. */
  byDelegate(
    publicKey: string,
    page: { readonly offset: number; readonly limit: number },
  ): Promise<{ readonly slots: readonly MissedSlot[]; readonly totalCount: number }>;
}

/** The events an applied block publishes, in the order they are published. */
export type AppliedBlockEventName =
  | 'transaction.applied'
  | 'delegate.registered'
  | 'delegate.resigned'
  | 'block.applied'
  | 'round.applied'
  | 'wallets.changed';

/** One event of an applied block with its payload, as the bus carries it. */
export type AppliedBlockEvent = {
  readonly [K in AppliedBlockEventName]: { readonly event: K; readonly payload: EventMap[K] };
}[AppliedBlockEventName];

/**
 * What each block's database transaction is about, for the plugins that join it
 * (`blockCommit.join`): the block and the events it will publish once committed. A participant
 * writes what must not be lost if the node dies right after the commit (an outbox).
 */
export interface CommittedBlock {
  readonly block: LedgerBlock;
  readonly events: readonly AppliedBlockEvent[];
}

/** The transaction state stores each applied block in, shared with the plugins that join it. */
export type BlockCommit = Pick<SharedTransaction<CommittedBlock>, 'join' | 'run' | 'joined'>;

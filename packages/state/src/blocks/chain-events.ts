import { TransactionType, TransactionTypeGroup, type TransactionData } from '@lni/crypto';
import type { EventBus } from '@lni/kernel';
import type { ElectionLog } from '../ledger/election-log.js';
import type { BlockReference, DelegateEvent } from './block-events.js';
import type { FullBlock } from './block-store.js';

/** What the events of an applied block are made from besides the block. */
export interface AppliedBlockContext {
  /** Which round the block elected, if any. */
  readonly elections?: ElectionLog;
  readonly addressOf: (publicKey: string) => string;
  /** A delegate's username as state holds it (a resignation does not carry it). */
  readonly usernameOf: (publicKey: string) => string | undefined;
  /** The wallets the block changed. */
  readonly changed: readonly string[];
}

/**
 * Publishes what an applied block did, once it is stored: each transaction, delegates
 * registered or resigned, the block, the round it elected, then the wallets it changed.
 */
export function emitBlockApplied(
  events: EventBus,
  block: FullBlock,
  context: AppliedBlockContext,
): void {
  const reference: BlockReference = {
    id: block.id,
    height: block.height,
    timestamp: block.timestamp,
  };
  for (const transaction of block.transactions ?? []) {
    events.emit('transaction.applied', { transaction, block: reference });
    const kind = delegateEventOf(transaction);
    if (kind) events.emit(kind, delegateEvent(transaction, reference, context));
  }
  events.emit('block.applied', { block });
  const elected = context.elections?.electedBy(block.height);
  if (elected) {
    events.emit('round.applied', {
      round: elected.round,
      height: block.height,
      delegates: elected.order,
      votes: elected.votes,
    });
  }
  if (context.changed.length > 0) {
    events.emit('wallets.changed', { addresses: context.changed, height: block.height });
  }
}

function delegateEventOf(
  transaction: TransactionData,
): 'delegate.registered' | 'delegate.resigned' | undefined {
  if (transaction.typeGroup !== TransactionTypeGroup.Core) return undefined;
  if (transaction.type === TransactionType.DelegateRegistration) return 'delegate.registered';
  if (transaction.type === TransactionType.DelegateResignation) return 'delegate.resigned';
  return undefined;
}

function delegateEvent(
  transaction: TransactionData,
  block: BlockReference,
  context: AppliedBlockContext,
): DelegateEvent {
  const publicKey = transaction.senderPublicKey;
  return {
    username: transaction.asset?.delegate?.username ?? context.usernameOf(publicKey) ?? '',
    publicKey,
    address: context.addressOf(publicKey),
    transaction: transaction.id ?? '',
    block,
  };
}

import { TransactionType, TransactionTypeGroup, type TransactionData } from '@lni/crypto';
import type { EventBus, EventMap } from '@lni/kernel';
import type { AppliedBlockEvent, AppliedBlockEventName } from '../contracts/storage.js';
import type { ElectionLog } from '../rounds/election-log.js';
import type { BlockPlace as BlockReference, DelegateEvent } from '../contracts/events.js';
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

export type { AppliedBlockEvent, AppliedBlockEventName } from '../contracts/storage.js';

/**
 * What an applied block did, made before it is stored (so that plugins joining the block's
 * transaction write what follows from it with the block): each transaction, delegates
 * registered or resigned, the block, the round it elected, then the wallets it changed.
 */
export function appliedBlockEvents(
  block: FullBlock,
  context: AppliedBlockContext,
): AppliedBlockEvent[] {
  const events: AppliedBlockEvent[] = [];
  const reference: BlockReference = {
    id: block.id,
    height: block.height,
    timestamp: block.timestamp,
  };
  for (const transaction of block.transactions ?? []) {
    events.push({ event: 'transaction.applied', payload: { transaction, block: reference } });
    const kind = delegateEventOf(transaction);
    if (kind) events.push({ event: kind, payload: delegateEvent(transaction, reference, context) });
  }
  events.push({ event: 'block.applied', payload: { block } });
  const elected = context.elections?.electedBy(block.height);
  if (elected) {
    events.push({
      event: 'round.applied',
      payload: {
        round: elected.round,
        height: block.height,
        delegates: elected.order,
        votes: elected.votes,
      },
    });
  }
  if (context.changed.length > 0) {
    events.push({
      event: 'wallets.changed',
      payload: { addresses: context.changed, height: block.height },
    });
  }
  return events;
}

/** Publishes an applied block's events, once it is stored. */
export function emitBlockApplied(events: EventBus, applied: readonly AppliedBlockEvent[]): void {
  for (const one of applied) emitOne(events, one);
}

/** One event, its name and payload typed together (a union of pairs would not be). */
function emitOne<K extends AppliedBlockEventName>(
  events: EventBus,
  applied: { readonly event: K; readonly payload: EventMap[K] },
): void {
  events.emit(applied.event, applied.payload);
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

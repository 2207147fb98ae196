import type { BlockHeader, TransactionData } from '@lni/crypto';
import type { LedgerReader } from '@lni/state/contracts';
import { blockResource, type BlockResource } from '../resources/block.js';
import type { ChainContext } from '../resources/chain-context.js';
import { timestampOf, type ApiTimestamp } from '../resources/timestamp.js';
import { transactionResource, type TransactionResource } from '../resources/transaction.js';
import { unconfirmedResource } from '../resources/unconfirmed-transaction.js';
import { walletResource, type WalletResource } from '../resources/wallet.js';
import type { EventMap } from '@lni/kernel';
import type { BlockPlace, DelegateEvent } from '@lni/state/contracts';

/** A delegate as the round and missed-slot messages name it. */
export interface DelegateMention {
  readonly publicKey: string;
  readonly address: string;
  readonly username?: string;
}

export interface RoundMessage {
  readonly round: number;
  /** The height of the block that elected the round; the round begins after it. */
  readonly height: number;
  readonly delegates: readonly (DelegateMention & { readonly votes: string })[];
}

export interface DelegateChangeMessage extends DelegateMention {
  readonly transaction: string;
  readonly block: { readonly id: string; readonly height: number };
  readonly timestamp: ApiTimestamp;
}

export interface MissedSlotMessage {
  readonly height: number;
  readonly round: number;
  readonly slot: number;
  readonly timestamp: ApiTimestamp;
  readonly delegate: DelegateMention;
}

/**
 * Turns the bus's events into what subscribers receive: the API's own resource shapes (the
 * block, transaction and wallet objects of the REST routes), so that a client handles a pushed
 * object and a fetched one alike.
 */
export class LiveMessages {
  constructor(private readonly ledger: () => LedgerReader) {}

  context(): ChainContext {
    return this.ledger().chainContext();
  }

  block(block: BlockHeader): BlockResource {
    return blockResource(block, this.context());
  }

  confirmed(transaction: TransactionData, block: BlockPlace): TransactionResource {
    return transactionResource(
      {
        ...transaction,
        id: transaction.id ?? '',
        blockId: block.id,
        blockHeight: block.height,
        timestamp: block.timestamp,
      },
      this.context(),
    );
  }

  unconfirmed(transaction: TransactionData): Record<string, unknown> {
    return unconfirmedResource(transaction, this.context().addressOf);
  }

  /**
   * The wallets as GET /api/wallets/{address} shows them, in one search of the ledger (an api
   * node reads them from its database in one statement); addresses state holds no wallet for
   * are left out.
   */
  async wallets(addresses: readonly string[], deadline: number): Promise<WalletResource[]> {
    const page = await this.ledger().wallets(
      {
        conditions: [{ kind: 'in', field: 'address', values: addresses }],
        orderBy: [],
        offset: 0,
        limit: addresses.length,
      },
      deadline,
    );
    return page.results.map(walletResource);
  }

  round({ round, height, delegates, votes }: EventMap['round.applied']): RoundMessage {
    return {
      round,
      height,
      delegates: delegates.map((publicKey) => ({
        ...this.delegate(publicKey),
        votes: (votes.get(publicKey) ?? 0n).toString(),
      })),
    };
  }

  delegateChange(change: DelegateEvent): DelegateChangeMessage {
    return {
      ...this.delegate(change.publicKey),
      ...(change.username !== '' && { username: change.username }),
      transaction: change.transaction,
      block: { id: change.block.id, height: change.block.height },
      timestamp: timestampOf(change.block.timestamp, this.context().epochStart),
    };
  }

  missedSlot(missed: EventMap['forger.missing']): MissedSlotMessage {
    return {
      height: missed.height,
      round: missed.round,
      slot: missed.slot,
      timestamp: timestampOf(missed.timestamp, this.context().epochStart),
      delegate: this.delegate(missed.delegate),
    };
  }

  /** The addresses a transaction sends from or pays: sender, recipient, multipayment recipients. */
  addressesOf(transaction: TransactionData): Set<string> {
    const addresses = new Set([this.context().addressOf(transaction.senderPublicKey)]);
    if (transaction.recipientId) addresses.add(transaction.recipientId);
    for (const payment of transaction.asset?.payments ?? []) addresses.add(payment.recipientId);
    return addresses;
  }

  private delegate(publicKey: string): DelegateMention {
    const context = this.context();
    const username = context.usernameOf?.(publicKey);
    return {
      publicKey,
      address: context.addressOf(publicKey),
      ...(username !== undefined && { username }),
    };
  }
}

import type { FieldCatalog } from '../query/fields.js';
import type { WalletView } from '@lni/state/contracts';
import { timestampOf, type ApiTimestamp } from './timestamp.js';

/** The spec's delegate object; amounts are decimal strings. */
export interface DelegateResource {
  readonly username: string;
  readonly address: string;
  readonly publicKey: string;
  readonly votes: string;
  readonly rank: number | null;
  readonly isResigned: boolean;
  readonly blocks: {
    readonly produced: number;
    /** Slots of the delegate that passed without a block. */
    readonly missed: number;
    readonly last?: {
      readonly id: string;
      readonly height: number;
      readonly timestamp: ApiTimestamp;
    };
  };
  readonly production: { readonly approval: number; readonly productivity: number };
  readonly forged: { readonly fees: string; readonly rewards: string; readonly total: string };
}

export interface DelegateContext {
  /** All coins in existence at the current height: approval is votes as a share of it. */
  readonly supply: bigint;
  /** When the network's epoch began (the milestone `epoch`). */
  readonly epochStart: string;
}

/** Approval in percent with two decimals, as ARK 3.0 computes it, without float rounding drift. */
export function approvalOf(votes: bigint, supply: bigint): number {
  if (supply <= 0n) return 0;
  const basisPoints = (votes * 10_000n + supply / 2n) / supply;
  return Number(basisPoints) / 100;
}

/**
 * Blocks produced as a share of the delegate's slots, in percent with two decimals (as ARK 2.x
 * showed it beside approval); 0 before its first slot. The ledger indexes the same figure.
 */
export function productivityOf(produced: number, missed: number): number {
  const slots = produced + missed;
  return slots === 0 ? 0 : Math.round((produced * 10_000) / slots) / 100;
}

/** Shapes a delegate wallet; throws when the wallet has no delegate attributes. */
export function delegateResource(wallet: WalletView, context: DelegateContext): DelegateResource {
  const delegate = wallet.attributes.delegate;
  if (delegate === undefined || wallet.publicKey === undefined) {
    throw new Error(`wallet ${wallet.address} is not a delegate`);
  }
  const last = delegate.lastBlock;
  return {
    username: delegate.username,
    address: wallet.address,
    publicKey: wallet.publicKey,
    votes: delegate.voteBalance.toString(),
    rank: delegate.rank ?? null,
    isResigned: delegate.resigned === true,
    blocks: {
      produced: delegate.producedBlocks,
      missed: delegate.missedBlocks ?? 0,
      ...(last && {
        last: {
          id: last.id,
          height: last.height,
          timestamp: timestampOf(last.timestamp, context.epochStart),
        },
      }),
    },
    production: {
      approval: approvalOf(delegate.voteBalance, context.supply),
      productivity: productivityOf(delegate.producedBlocks, delegate.missedBlocks ?? 0),
    },
    forged: {
      fees: delegate.forgedFees.toString(),
      rewards: delegate.forgedRewards.toString(),
      total: (delegate.forgedFees + delegate.forgedRewards).toString(),
    },
  };
}

/** Every field of the delegate object a client may filter and order on. */
export const delegateCatalog: FieldCatalog = {
  username: { type: 'string' },
  address: { type: 'string' },
  publicKey: { type: 'string' },
  votes: { type: 'amount' },
  rank: { type: 'integer' },
  isResigned: { type: 'boolean' },
  'blocks.produced': { type: 'integer' },
  'blocks.missed': { type: 'integer' },
  'blocks.last.id': { type: 'string' },
  'blocks.last.height': { type: 'integer' },
  'blocks.last.timestamp.epoch': { type: 'integer' },
  'blocks.last.timestamp.unix': { type: 'integer' },
  'blocks.last.timestamp.human': { type: 'string' },
  'production.approval': { type: 'number' },
  'production.productivity': { type: 'number' },
  'forged.fees': { type: 'amount' },
  'forged.rewards': { type: 'amount' },
  'forged.total': { type: 'amount' },
};

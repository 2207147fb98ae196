import type { Wallet, WalletAttributes } from './wallet.js';

export type FieldType = 'string' | 'bigint' | 'number' | 'boolean';
export type FieldValue = string | bigint | number | boolean;

/** The part of a wallet a field is read from; changing that part re-indexes the field. */
export type WalletPart = 'address' | 'publicKey' | 'balance' | 'nonce' | keyof WalletAttributes;

/** A scalar wallet field that the repository indexes and the query engine filters and orders on. */
export interface WalletField {
  readonly path: string;
  readonly type: FieldType;
  readonly part: WalletPart;
  /** Only wallets with delegate attributes have a value. */
  readonly delegateOnly: boolean;
  /** Read the value; `undefined` when the wallet has none (such wallets are not in the index). */
  readonly read: (wallet: Wallet) => FieldValue | undefined;
}

const field = (
  path: string,
  type: FieldType,
  part: WalletPart,
  read: WalletField['read'],
): WalletField => ({ path, type, part, delegateOnly: part === 'delegate', read });

/**
 * Every indexed field. `attributes.delegate.resigned` reads false for a delegate that never
 * resigned (the wallet object leaves it absent), so `resigned=false` finds the active delegates.
 * `attributes.delegate.forgedTotal` is derived (fees + rewards): the delegate resource's
 * `forged.total`, indexed so that ordering by it needs no scan.
 */
export const WALLET_FIELDS: readonly WalletField[] = [
  field('address', 'string', 'address', (w) => w.address),
  field('publicKey', 'string', 'publicKey', (w) => w.publicKey),
  field('balance', 'bigint', 'balance', (w) => w.balance),
  field('nonce', 'bigint', 'nonce', (w) => w.nonce),
  field('attributes.vote', 'string', 'vote', (w) => w.attributes.vote),
  field(
    'attributes.secondPublicKey',
    'string',
    'secondPublicKey',
    (w) => w.attributes.secondPublicKey,
  ),
  field(
    'attributes.multiSignature.min',
    'number',
    'multiSignature',
    (w) => w.attributes.multiSignature?.min,
  ),
  field('attributes.htlc.lockedBalance', 'bigint', 'htlc', (w) => w.attributes.htlc?.lockedBalance),
  field(
    'attributes.delegate.username',
    'string',
    'delegate',
    (w) => w.attributes.delegate?.username,
  ),
  field(
    'attributes.delegate.voteBalance',
    'bigint',
    'delegate',
    (w) => w.attributes.delegate?.voteBalance,
  ),
  field(
    'attributes.delegate.forgedFees',
    'bigint',
    'delegate',
    (w) => w.attributes.delegate?.forgedFees,
  ),
  field(
    'attributes.delegate.forgedRewards',
    'bigint',
    'delegate',
    (w) => w.attributes.delegate?.forgedRewards,
  ),
  field('attributes.delegate.forgedTotal', 'bigint', 'delegate', (w) => {
    const delegate = w.attributes.delegate;
    return delegate && delegate.forgedFees + delegate.forgedRewards;
  }),
  field(
    'attributes.delegate.producedBlocks',
    'number',
    'delegate',
    (w) => w.attributes.delegate?.producedBlocks,
  ),
  field('attributes.delegate.missedBlocks', 'number', 'delegate', (w) => {
    const delegate = w.attributes.delegate;
    return delegate && (delegate.missedBlocks ?? 0);
  }),
  field('attributes.delegate.productivity', 'number', 'delegate', (w) => {
    const delegate = w.attributes.delegate;
    return delegate && productivityOf(delegate.producedBlocks, delegate.missedBlocks ?? 0);
  }),
  field('attributes.delegate.rank', 'number', 'delegate', (w) => w.attributes.delegate?.rank),
  field('attributes.delegate.resigned', 'boolean', 'delegate', (w) => {
    const delegate = w.attributes.delegate;
    return delegate && (delegate.resigned ?? false);
  }),
  field(
    'attributes.delegate.lastBlock.id',
    'string',
    'delegate',
    (w) => w.attributes.delegate?.lastBlock?.id,
  ),
  field(
    'attributes.delegate.lastBlock.height',
    'number',
    'delegate',
    (w) => w.attributes.delegate?.lastBlock?.height,
  ),
  field(
    'attributes.delegate.lastBlock.timestamp',
    'number',
    'delegate',
    (w) => w.attributes.delegate?.lastBlock?.timestamp,
  ),
];

/**
 * Blocks produced as a share of the delegate's slots, in percent with two decimals, as ARK 2.x
 * showed it beside `approval`; 0 before the delegate had a slot.
 */
export function productivityOf(produced: number, missed: number): number {
  const slots = produced + missed;
  return slots === 0 ? 0 : Math.round((produced * 10_000) / slots) / 100;
}

const BY_PATH = new Map(WALLET_FIELDS.map((f) => [f.path, f]));

/** The indexed field at a dotted path, or undefined when the path is not an indexed field. */
export function walletField(path: string): WalletField | undefined {
  return BY_PATH.get(path);
}

/** Total order of two values of one field: numbers and bigints numerically, strings by code unit, false < true. */
export function compareFieldValues(a: FieldValue, b: FieldValue): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Code-unit order of addresses: the tie-break that makes every ordering total. */
export function compareAddresses(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

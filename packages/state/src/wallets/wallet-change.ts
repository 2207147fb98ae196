import { WalletError } from './errors.js';
import type { Wallet, WalletAttributes } from './wallet.js';

/**
 * A change to one wallet. Omitted parts stay; an attribute set to `undefined` is removed
 * (a vote withdrawn, an HTLC map emptied).
 */
export interface WalletChange {
  readonly publicKey?: string;
  readonly balance?: bigint;
  readonly nonce?: bigint;
  readonly attributes?: {
    readonly [K in keyof WalletAttributes]?: WalletAttributes[K] | undefined;
  };
}

const NO_ATTRIBUTES: WalletAttributes = Object.freeze({});

/** A wallet with nothing on it: what an unknown address holds. */
export function emptyWallet(address: string): Wallet {
  if (typeof address !== 'string' || address.length === 0) {
    throw new WalletError('ERR_WALLET_INVALID_VALUE', 'address: expected a non-empty string', {
      field: 'address',
    });
  }
  return Object.freeze({ address, balance: 0n, nonce: 0n, attributes: NO_ATTRIBUTES });
}

/** The wallet after the change, frozen; the previous wallet is left as it was. */
export function applyChange(previous: Wallet, change: WalletChange): Wallet {
  // Called for every balance move of every transaction: checks are cheap tests first, and the
  // result is built as one literal per shape (with or without a public key).
  if (change.balance !== undefined && typeof change.balance !== 'bigint') {
    throw invalidValue(previous, 'balance', 'expected a bigint');
  }
  if (change.nonce !== undefined && (typeof change.nonce !== 'bigint' || change.nonce < 0n)) {
    throw invalidValue(previous, 'nonce', 'expected a non-negative bigint');
  }
  if (change.publicKey !== undefined && change.publicKey !== previous.publicKey) {
    if (typeof change.publicKey !== 'string' || !/^0[23][0-9a-f]{64}$/.test(change.publicKey)) {
      throw invalidValue(
        previous,
        'publicKey',
        'expected a compressed public key in lower-case hex',
      );
    }
    if (previous.publicKey !== undefined) {
      throw invalidValue(
        previous,
        'publicKey',
        'a wallet keeps the public key it first signed with',
      );
    }
  }
  let attributes = previous.attributes;
  if (change.attributes) {
    const next: Record<string, unknown> = { ...previous.attributes };
    for (const [name, value] of Object.entries(change.attributes)) {
      if (value === undefined) delete next[name];
      else next[name] = deepFreeze(value);
    }
    const delegate = next.delegate as WalletAttributes['delegate'];
    if (delegate && (typeof delegate.username !== 'string' || delegate.username.length === 0)) {
      throw invalidValue(previous, 'attributes.delegate.username', 'expected a non-empty string');
    }
    attributes =
      Object.keys(next).length === 0 ? NO_ATTRIBUTES : (Object.freeze(next) as WalletAttributes);
  }
  const publicKey = change.publicKey ?? previous.publicKey;
  const balance = change.balance ?? previous.balance;
  const nonce = change.nonce ?? previous.nonce;
  const address = previous.address;
  return Object.freeze(
    publicKey === undefined
      ? { address, balance, nonce, attributes }
      : { address, publicKey, balance, nonce, attributes },
  );
}

function invalidValue(wallet: Wallet, field: string, reason: string): WalletError {
  return new WalletError('ERR_WALLET_INVALID_VALUE', `${field}: ${reason}`, {
    address: wallet.address,
    field,
  });
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

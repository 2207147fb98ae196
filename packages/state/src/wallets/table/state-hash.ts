import { hash } from 'node:crypto';
import type { Wallet } from '../wallet.js';

const MODULUS = 1n << 256n;

/**
 * The wallet's canonical text: the wallet as JSON with keys sorted and amounts as decimal
 * strings (as its row keeps them; `updated_height` and the indexed copies left out), so that a
 * wallet read back from JSONB (which reorders keys) hashes as the one in memory.
 */
export function canonicalWallet(wallet: Wallet): string {
  // The top-level keys in sorted order, written out: this runs for every wallet at each load.
  const publicKey = wallet.publicKey === undefined ? 'null' : JSON.stringify(wallet.publicKey);
  return (
    `{"address":${JSON.stringify(wallet.address)},"attributes":${canonicalJson(wallet.attributes)},` +
    `"balance":"${wallet.balance}","nonce":"${wallet.nonce}","publicKey":${publicKey}}`
  );
}

function canonicalJson(value: unknown): string {
  if (typeof value === 'bigint') return `"${value}"`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (Object.keys(value).length === 0) return '{}';
  const entries = Object.entries(value)
    .filter(([, inner]) => inner !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([key, inner]) => `${JSON.stringify(key)}:${canonicalJson(inner)}`).join(',')}}`;
}

export function walletDigest(wallet: Wallet): bigint {
  // The one-shot hash: a Hash object per wallet costs a load more than the hashing does.
  return BigInt(`0x${hash('sha256', canonicalWallet(wallet), 'hex')}`);
}

/** A change of the hash not yet made: applied once the database transaction commits. */
export interface PendingHash {
  /** The hash after the change, as `state_head.state_hash` keeps it. */
  readonly hex: string;
  apply(): void;
}

/**
 * A hash of the whole wallet state that costs O(changed wallets) per block: the sum, modulo
 * 2^256, of the sha256 of each wallet's canonical text. Each wallet's digest is remembered, so
 * a changed wallet takes its old digest out and its new one in; order does not matter, so a
 * table read back in any order hashes the same.
 */
export class StateHash {
  readonly #digests = new Map<string, bigint>();
  #sum = 0n;

  get hex(): string {
    return hexOf(this.#sum);
  }

  /** Starts again from exactly these wallets (a full write, a load). */
  reset(wallets: Iterable<Wallet>): void {
    this.#digests.clear();
    let sum = 0n;
    for (const wallet of wallets) {
      const digest = walletDigest(wallet);
      this.#digests.set(wallet.address, digest);
      sum += digest;
    }
    this.#sum = sum % MODULUS;
  }

  /** The hash once each address holds its wallet (undefined: the wallet is gone). */
  change(
    changes: readonly (readonly [address: string, wallet: Wallet | undefined])[],
  ): PendingHash {
    let sum = this.#sum;
    const digests = new Map<string, bigint | undefined>();
    for (const [address, wallet] of changes) {
      const previous = digests.has(address) ? digests.get(address) : this.#digests.get(address);
      const next = wallet && walletDigest(wallet);
      sum += (next ?? 0n) - (previous ?? 0n);
      digests.set(address, next);
    }
    sum = ((sum % MODULUS) + MODULUS) % MODULUS;
    return {
      hex: hexOf(sum),
      apply: () => {
        for (const [address, digest] of digests) {
          if (digest === undefined) this.#digests.delete(address);
          else this.#digests.set(address, digest);
        }
        this.#sum = sum;
      },
    };
  }
}

function hexOf(sum: bigint): string {
  return sum.toString(16).padStart(64, '0');
}

import {
  addressFromPublicKey,
  IdentityError,
  type Milestones,
  type SignerRegistrations,
  type TransactionData,
} from '@lni/crypto';
import { applyTransaction } from '../blocks/transaction-steps.js';
import type { LedgerState } from '../handlers/transaction-handler.js';
import { signerRegistrations } from '../wallets/signer-registrations.js';
import type { WalletRepository } from '../wallets/wallet-repository.js';
import type { PoolEntry } from './pool-entry.js';
import { PoolRefusal } from './pool-rejection.js';

export interface PoolLedgerDeps {
  readonly wallets: WalletRepository;
  readonly milestones: Milestones;
  readonly network: { readonly pubKeyHash: number };
  /** The chain's tip; the pool judges for the block after it. */
  readonly tip: () => { readonly height: number; readonly timestamp: number };
  /** Require the milestone's static fee. */
  readonly staticFees: boolean;
  /** Unix milliseconds now. */
  readonly clock?: () => number;
}

/** The ledger as the pool judges against it: state as the block after the tip will see it. */
export class PoolLedger {
  readonly #deps: PoolLedgerDeps;

  constructor(deps: PoolLedgerDeps) {
    this.#deps = deps;
  }

  /** The state the next block applies on; signatures were verified in bulk on admission. */
  nextBlock(): LedgerState {
    const tip = this.#deps.tip();
    const height = tip.height + 1;
    return {
      repository: this.#deps.wallets,
      milestone: this.#deps.milestones.at(height),
      height,
      timestamp: tip.timestamp,
      pubKeyHash: this.#deps.network.pubKeyHash,
      enforceStaticFees: this.#deps.staticFees,
      verifySignatures: false,
    };
  }

  /** Unix milliseconds now. */
  now(): number {
    return this.#deps.clock?.() ?? Date.now();
  }

  /** Remembered by @lni/crypto, so repeated senders cost a map lookup. */
  addressOf(publicKey: string): string {
    return addressFromPublicKey(publicKey, this.#deps.network.pubKeyHash);
  }

  /** What the sender has registered now; nothing for a key that is no public key at all. */
  registrationsOf(senderPublicKey: string): SignerRegistrations {
    let address: string;
    try {
      address = this.addressOf(senderPublicKey);
    } catch (error) {
      // Validation refuses such a transaction with a reason; its signatures cannot verify.
      if (error instanceof IdentityError) return {};
      throw error;
    }
    return signerRegistrations(this.#deps.wallets.get(address));
  }

  /** Runs `work` on the wallets and undoes whatever it changed. */
  trial<T>(work: () => T): T {
    const { wallets } = this.#deps;
    const checkpoint = wallets.checkpoint();
    try {
      return work();
    } finally {
      wallets.rollback(checkpoint);
    }
  }

  /**
   * Applies a pooled transaction on state, unless state holds it already: a block being
   * written has moved the wallets before it tells the pool what it took, and a transaction
   * arriving in between must be judged after those, not refused.
   */
  applyPending(entry: PoolEntry, state: LedgerState): void {
    const nonce = entry.tx.nonce;
    if (nonce !== undefined) {
      const current = this.#deps.wallets.get(entry.sender)?.nonce ?? 0n;
      if (nonce <= current) return;
    }
    applyTransaction(entry.tx, entry.sender, state);
  }
}

/** Refuses a transfer whose expiration height the next block has reached. */
export function checkNotExpired(tx: TransactionData, height: number): void {
  if (tx.expiration !== undefined && tx.expiration > 0 && tx.expiration <= height) {
    throw new PoolRefusal('expired', `expiration: height ${tx.expiration} has passed`);
  }
}

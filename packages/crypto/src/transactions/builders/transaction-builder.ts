import { keysFromPassphrase } from '../../identities/keys.js';
import type { Milestone } from '../../networks/milestone.js';
import { handlerFor } from '../handler-for.js';
import {
  multiSignTransaction,
  secondSignTransaction,
  signTransaction,
  type Signer,
} from '../signing.js';
import { TransactionError } from '../transaction-error.js';
import { TransactionTypeGroup, type TransactionData } from '../transaction-data.js';
import { transactionId } from '../transaction-hash.js';
import type { TransactionTypeHandler } from '../type-handler.js';

export interface BuilderOptions {
  /** The network's pubKeyHash byte; can also be set with `.network()`. */
  readonly network?: number;
  /** Supplies the default fee (`fees.staticFees`); without it ARK 3.0's defaults apply. */
  readonly milestone?: Milestone;
}

export type MutableTransactionData = { -readonly [K in keyof TransactionData]: TransactionData[K] };

/** A whole number given as bigint, safe integer or decimal string. */
export function toBigInt(value: bigint | number | string, field: string): bigint {
  try {
    if (typeof value === 'number' && !Number.isSafeInteger(value)) throw new RangeError();
    return BigInt(value);
  } catch (error) {
    throw new TransactionError(field, `not a whole number: ${String(value)}`, { cause: error });
  }
}

/**
 * Fluent construction of a transaction: set fields, then sign, secondSign and multiSign in that
 * order of coverage, and build. Fees default to the milestone's static fee for the type.
 */
export abstract class TransactionBuilder<Self extends TransactionBuilder<Self>> {
  protected readonly data: MutableTransactionData;
  readonly #handler: TransactionTypeHandler;
  readonly #milestone: Milestone | undefined;
  #feeSet = false;

  protected constructor(handler: TransactionTypeHandler, options: BuilderOptions = {}) {
    this.#handler = handler;
    this.#milestone = options.milestone;
    this.data = {
      version: 2,
      network: options.network ?? -1,
      typeGroup: TransactionTypeGroup.Core,
      type: handler.type,
      nonce: 0n,
      senderPublicKey: '',
      fee: 0n,
      amount: 0n,
    };
  }

  protected self(): Self {
    return this as unknown as Self;
  }

  version(version: 1 | 2): Self {
    this.data.version = version;
    if (version === 1) this.data.timestamp ??= 0;
    else delete this.data.timestamp;
    return this.self();
  }

  network(pubKeyHash: number): Self {
    this.data.network = pubKeyHash;
    return this.self();
  }

  nonce(nonce: bigint | number | string): Self {
    this.data.nonce = toBigInt(nonce, 'nonce');
    return this.self();
  }

  fee(fee: bigint | number | string): Self {
    this.data.fee = toBigInt(fee, 'fee');
    this.#feeSet = true;
    return this.self();
  }

  /** Version 1 only: seconds since the network's epoch. */
  timestamp(seconds: number): Self {
    this.data.timestamp = seconds;
    return this.self();
  }

  senderPublicKey(publicKey: string): Self {
    this.data.senderPublicKey = publicKey;
    return this.self();
  }

  sign(signer: Signer): Self {
    const keys = typeof signer === 'string' ? keysFromPassphrase(signer) : signer;
    // Known before preparing, so fields derived from the sender (v1 vote recipient) are signed.
    if (this.data.senderPublicKey === '') {
      this.data.senderPublicKey = keys.publicKey.toString('hex');
    }
    this.#replace(signTransaction(this.#prepared(), keys));
    return this.self();
  }

  secondSign(signer: Signer): Self {
    this.#replace(secondSignTransaction(this.#prepared(), signer));
    return this.self();
  }

  /** Adds a participant's signature; `index` is its position in the multisignature keys. */
  multiSign(signer: Signer, index: number): Self {
    this.#replace(multiSignTransaction(this.#prepared(), signer, index));
    return this.self();
  }

  /** The finished transaction, id included. */
  build(): TransactionData {
    const data = this.#prepared();
    return { ...data, id: transactionId(data) };
  }

  /** Type-specific completion before signing (the v1 vote recipient). */
  protected complete(): void {}

  #prepared(): TransactionData {
    if (this.data.network < 0 || this.data.network > 255) {
      throw new TransactionError('network', 'set the pubKeyHash with .network() or the options');
    }
    handlerFor(this.data);
    if (!this.#feeSet) this.data.fee = this.#staticFee();
    this.complete();
    return { ...this.data };
  }

  #staticFee(): bigint {
    const configured = this.#milestone?.fees?.staticFees?.[this.#handler.feeKey];
    const base = configured === undefined ? this.#handler.defaultStaticFee : BigInt(configured);
    return base * (this.#handler.feeMultiplier?.(this.data) ?? 1n);
  }

  #replace(data: TransactionData): void {
    // A signed fee is final: later asset changes must not silently change it.
    this.#feeSet = true;
    for (const key of Object.keys(this.data) as (keyof MutableTransactionData)[]) {
      delete this.data[key];
    }
    Object.assign(this.data, data);
  }
}

import type { StoredTransaction } from '@lni/database';
import { LRUCache } from 'lru-cache';
import { confirmationsOf, type ChainContext } from '../resources/chain-context.js';
import type { JsonParts } from '../resources/json-bytes.js';
import { transactionResource } from '../resources/transaction.js';
import { storedTransactionView } from './stored-views.js';

interface KeptTransaction {
  readonly blockId: string;
  /** The JSON up to the value of `confirmations`, and from the comma after it. */
  readonly head: Buffer;
  readonly tail: Buffer;
}

const CONFIRMATIONS_KEY = Buffer.from(',"confirmations":');
const COMMA = 0x2c;

/** Bytes kept in all: some 50,000 transfers, or fewer multipayments (a few KB each). */
const KEPT_BYTES = 32 * 1024 * 1024;

/**
 * The JSON of confirmed transactions, kept encoded by id. A stored transaction never changes; a
 * fork may revert it and a later block include it again, so what is kept is checked against
 * the block. Only its confirmations move with the chain: the JSON is kept in two parts around
 * them. Building a transaction's JSON (its signatures read from its bytes, its resource, the
 * stringify) is most of what a page of 100 costs once its rows are read, and the pages asked
 * for most (an address's latest, the chain's latest) are served again and again between blocks.
 * Bounded by size: a walk through history evicts the least recently served.
 */
export class TransactionJson {
  readonly #kept: LRUCache<string, KeptTransaction>;

  constructor(maxBytes = KEPT_BYTES) {
    this.#kept = new LRUCache({
      maxSize: maxBytes,
      sizeCalculation: (kept) => kept.head.length + kept.tail.length,
    });
  }

  /** The transaction's JSON at the chain `context` describes, as parts to concatenate. */
  of(stored: StoredTransaction, context: ChainContext): JsonParts {
    let kept = this.#kept.get(stored.id);
    if (kept === undefined || kept.blockId !== stored.blockId) {
      kept = encode(stored, context);
      this.#kept.set(stored.id, kept);
    }
    const confirmations = Buffer.from(String(confirmationsOf(stored.blockHeight, context)));
    return [kept.head, confirmations, kept.tail];
  }
}

function encode(stored: StoredTransaction, context: ChainContext): KeptTransaction {
  const json = Buffer.from(
    JSON.stringify(transactionResource(storedTransactionView(stored), context)),
  );
  // The last occurrence: an asset may hold any key, and only fixed fields follow this one.
  const valueStart = json.lastIndexOf(CONFIRMATIONS_KEY) + CONFIRMATIONS_KEY.length;
  const valueEnd = json.indexOf(COMMA, valueStart);
  // Two views of one encoding: one copy of the text per transaction.
  return {
    blockId: stored.blockId,
    head: json.subarray(0, valueStart),
    tail: json.subarray(valueEnd),
  };
}

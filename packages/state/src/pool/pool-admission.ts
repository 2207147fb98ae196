import {
  serializeTransaction,
  transactionId,
  validateTransaction,
  type TransactionData,
  type VerificationPool,
} from '@lni/crypto';
import { checkTransaction, ruleOf } from '../blocks/transaction-steps.js';
import type { LedgerState } from '../handlers/transaction-handler.js';
import type { PoolEntry } from './pool-entry.js';
import type { PoolIndex } from './pool-index.js';
import { checkNotExpired, type PoolLedger } from './pool-ledger.js';
import { PoolRefusal, type PoolRejection } from './pool-rejection.js';
import { verifySignatures, type SignatureVerdict } from './pool-signatures.js';

/** An entry the pool just took, with its position in the batch it came in. */
export interface Admitted {
  readonly index: number;
  readonly entry: PoolEntry;
}

export interface Judgement {
  readonly admitted: readonly Admitted[];
  readonly rejected: readonly PoolRejection[];
}

export interface PoolAdmissionDeps {
  readonly index: PoolIndex;
  readonly ledger: PoolLedger;
  readonly network: { readonly pubKeyHash: number };
  readonly maxPerSender: number;
  readonly verificationPool?: VerificationPool;
}

/**
 * Judges transactions for the pool: well-formed for the network and milestone, signed as the
 * sender must sign, not pooled yet, not expired, within the sender's limit, and accepted by
 * state after the sender's pooled ones (a sender's transactions form a nonce sequence).
 */
export class PoolAdmission {
  readonly #deps: PoolAdmissionDeps;

  constructor(deps: PoolAdmissionDeps) {
    this.#deps = deps;
  }

  /** Verifies signatures in bulk, against each sender's registrations now. */
  verify(transactions: readonly TransactionData[]): Promise<SignatureVerdict[]> {
    const { ledger, verificationPool } = this.#deps;
    return verifySignatures(
      transactions,
      (senderPublicKey) => ledger.registrationsOf(senderPublicKey),
      verificationPool,
    );
  }

  /**
   * Judges and adds transactions in the given order. Synchronous, so nothing else changes the
   * pool between one admission and the next.
   */
  admitAll(
    transactions: readonly TransactionData[],
    arrivalOf: (index: number) => number,
    verdicts: readonly SignatureVerdict[],
  ): Judgement {
    const state = this.#deps.ledger.nextBlock();
    const admitted: Admitted[] = [];
    const rejected: PoolRejection[] = [];
    transactions.forEach((tx, index) => {
      try {
        const validation = validateTransaction(tx, state.milestone, this.#deps.network);
        if (!validation.ok) {
          const issues = validation.errors.map((e) => `${e.path}: ${e.message}`).join('; ');
          throw new PoolRefusal('invalid', issues);
        }
        const verdict = verdicts[index] ?? 'invalid';
        if (verdict === 'invalid') {
          throw new PoolRefusal('signature', 'not signed as its sender must sign');
        }
        admitted.push({ index, entry: this.#admit(tx, arrivalOf(index), verdict, state) });
      } catch (error) {
        const reason = error instanceof PoolRefusal ? error.reason : ruleOf(error);
        if (reason === undefined) throw error;
        rejected.push({
          index,
          ...(tx?.id !== undefined && { id: tx.id }),
          reason,
          message: (error as Error).message,
        });
      }
    });
    return { admitted, rejected };
  }

  #admit(
    tx: TransactionData,
    addedAt: number,
    verdict: Exclude<SignatureVerdict, 'invalid'>,
    state: LedgerState,
  ): PoolEntry {
    const { index, ledger, maxPerSender } = this.#deps;
    const bytes = serializeTransaction(tx);
    const id = transactionId(tx);
    if (tx.id !== undefined && tx.id !== id) {
      throw new PoolRefusal('invalid', `id: ${tx.id} is not the hash of the transaction (${id})`);
    }
    if (index.has(id)) throw new PoolRefusal('duplicate', `${id} is already in the pool`);
    checkNotExpired(tx, state.height);
    const sender = ledger.addressOf(tx.senderPublicKey);
    const pooled = index.senderEntries(sender);
    if (pooled.length >= maxPerSender) {
      throw new PoolRefusal('sender.full', `${sender} has ${pooled.length} transactions pooled`);
    }
    ledger.trial(() => {
      for (const entry of pooled) ledger.applyPending(entry, state);
      checkTransaction(tx, sender, state);
    });
    const entry: PoolEntry = {
      tx: tx.id === undefined ? { ...tx, id } : tx,
      id,
      sender,
      bytes,
      feePerByte: Number(tx.fee) / bytes.length,
      addedAt,
      ...(verdict !== 'trusted' && { verifiedUnder: verdict }),
    };
    index.add(entry);
    return entry;
  }
}

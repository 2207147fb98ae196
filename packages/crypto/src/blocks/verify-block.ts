import type { Milestones } from '../networks/milestones.js';
import type { TransactionData } from '../transactions/transaction-data.js';
import { verifyEach, type VerificationItem } from '../verification/verification-item.js';
import type { VerificationPool } from '../verification/verification-pool.js';
import type { BlockData } from './block-data.js';
import { checkBlockRules, type TransactionFacts } from './block-rules.js';
import type { BlockRuleFailure, BlockVerification } from './block-verification.js';
import { blockSignatureItem } from './sign-block.js';
import { transactionFacts } from './transaction-facts.js';
import {
  transactionVerificationItems,
  verifyTransactionSignatures,
  type SignerRegistrations,
} from '../transactions/verification.js';

export interface VerifyBlockOptions {
  /**
   * What each sender's wallet has registered (second key, multisignature), from the wallet
   * state. Without it every sender is judged as a plain wallet, so a second signature fails.
   */
  readonly registrationsOf?: (senderPublicKey: string) => SignerRegistrations;
  /**
   * The wire bytes each transaction was read from, in block order: taken as its serialization
   * instead of serializing it again. They must be the bytes `block.transactions` were read from.
   */
  readonly serialized?: readonly Uint8Array[];
  /**
   * Whether the caller already verified the signatures of the transaction with this id (the
   * id computed here, which hashes the signatures too) under these signer registrations: its
   * signatures are then not checked again, since the same bytes under the same registrations
   * verify the same way.
   */
  readonly verifiedBefore?: (id: string, registrations: SignerRegistrations) => boolean;
}

interface PreparedBlock {
  readonly failures: BlockRuleFailure[];
  readonly items: VerificationItem[];
  /** Which transaction each item belongs to; undefined for the block signature. */
  readonly owners: (number | undefined)[];
  readonly transactions: readonly TransactionData[];
  readonly registrationsOf: (senderPublicKey: string) => SignerRegistrations;
}

/**
 * Checks every rule of a block against the milestone at its height and returns each failure:
 * the generator's signature, every transaction's signature and id, payload hash and length,
 * count, totals, and the milestone's size and count limits. Signatures are checked on this
 * thread (Schnorr in one batch); use verifyBlockInPool to keep the event loop free.
 */
export function verifyBlock(
  block: BlockData<TransactionData>,
  milestones: Milestones,
  options: VerifyBlockOptions = {},
): BlockVerification {
  const prepared = prepare(block, milestones, options);
  return conclude(prepared, verifyEach(prepared.items));
}

/** verifyBlock with the signatures checked by the worker threads of `pool`. */
export async function verifyBlockInPool(
  block: BlockData<TransactionData>,
  milestones: Milestones,
  pool: VerificationPool,
  options: VerifyBlockOptions = {},
): Promise<BlockVerification> {
  const prepared = prepare(block, milestones, options);
  return conclude(prepared, await pool.verify(prepared.items));
}

/**
 * verifyBlockInPool for many blocks (a batch during sync): their signatures go to the pool as one
 * request, so the workers share the work of the whole batch. Results are in the blocks' order.
 */
export async function verifyBlocksInPool(
  blocks: readonly BlockData<TransactionData>[],
  milestones: Milestones,
  pool: VerificationPool,
  options: Omit<VerifyBlockOptions, 'serialized'> = {},
): Promise<BlockVerification[]> {
  const prepared = blocks.map((block) => prepare(block, milestones, options));
  const valid = await pool.verify(prepared.flatMap((block) => block.items));
  let offset = 0;
  return prepared.map((block) => {
    const own = valid.slice(offset, offset + block.items.length);
    offset += block.items.length;
    return conclude(block, own);
  });
}

function prepare(
  block: BlockData<TransactionData>,
  milestones: Milestones,
  options: VerifyBlockOptions,
): PreparedBlock {
  const registrationsOf = options.registrationsOf ?? (() => ({}));
  const transactions = block.transactions ?? [];
  const failures: BlockRuleFailure[] = [];
  const items: VerificationItem[] = [];
  const owners: (number | undefined)[] = [];
  const facts: TransactionFacts[] = [];
  transactions.forEach((transaction, index) => {
    const fact = transactionFacts(transaction, options.serialized?.[index]);
    if (fact instanceof Error) {
      failures.push({ rule: 'transactionId', message: fact.message, transaction: index });
      return;
    }
    facts.push(fact);
    const registrations = registrationsOf(transaction.senderPublicKey);
    if (options.verifiedBefore?.(fact.id, registrations)) return;
    for (const item of transactionVerificationItems(transaction, registrations)) {
      items.push(item);
      owners.push(index);
    }
  });
  failures.push(...checkBlockRules(block, facts, milestones));
  if (!failures.some((failure) => failure.rule === 'header')) {
    items.push(blockSignatureItem(block, milestones));
    owners.push(undefined);
  }
  return { failures, items, owners, transactions, registrationsOf };
}

function conclude(prepared: PreparedBlock, valid: readonly boolean[]): BlockVerification {
  const failures = [...prepared.failures];
  const judged = new Set<number>();
  valid.forEach((ok, index) => {
    if (ok) return;
    const owner = prepared.owners[index];
    if (owner === undefined) {
      failures.push({ rule: 'signature', message: "block signature is not the generator's" });
      return;
    }
    if (judged.has(owner)) return;
    judged.add(owner);
    // A multisignature may hold invalid participant signatures and still pass, as in ARK.
    const transaction = prepared.transactions[owner]!;
    if (
      !verifyTransactionSignatures(
        transaction,
        prepared.registrationsOf(transaction.senderPublicKey),
      )
    ) {
      failures.push({
        rule: 'transactionSignature',
        message: `transaction ${transaction.id ?? owner} is not signed as its sender must sign`,
        transaction: owner,
      });
    }
  });
  failures.sort((a, b) => (a.transaction ?? -1) - (b.transaction ?? -1));
  return { verified: failures.length === 0, failures };
}

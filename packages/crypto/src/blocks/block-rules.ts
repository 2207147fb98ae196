import type { Milestones } from '../networks/milestones.js';
import type { BlockData } from './block-data.js';
import type { BlockRuleFailure } from './block-verification.js';
import { blockId, payloadHashOf } from './block-hash.js';
import { serializeBlockHeader } from './serialize-block.js';

/** What the block rules need of one transaction, computed once by the caller. */
export interface TransactionFacts {
  /** The id the block data claims, if any. */
  readonly claimedId: string | undefined;
  /** sha256 of the serialization, as computed. */
  readonly id: string;
  readonly bytes: Uint8Array;
  readonly amount: bigint;
  readonly fee: bigint;
  readonly expiration: number | undefined;
}

/**
 * Every rule of a block except signatures, against the milestone at its height: header fields,
 * id, counts, totals, payload hash and length, size limits and each transaction's id.
 */
export function checkBlockRules(
  block: BlockData<unknown>,
  transactions: readonly TransactionFacts[],
  milestones: Milestones,
): BlockRuleFailure[] {
  const failures: BlockRuleFailure[] = [];
  const fail = (rule: BlockRuleFailure['rule'], message: string, transaction?: number) =>
    failures.push(transaction === undefined ? { rule, message } : { rule, message, transaction });
  let headerBytes: Buffer;
  try {
    headerBytes = serializeBlockHeader(block, milestones);
  } catch (error) {
    fail('header', (error as Error).message);
    return failures;
  }
  const milestone = milestones.at(block.height);
  const id = blockId(block, milestones);
  if (block.id !== id) fail('id', `block id ${block.id} differs from the computed ${id}`);
  if (block.version !== milestone.block.version) {
    fail('version', `version ${block.version}, the milestone expects ${milestone.block.version}`);
  }
  if (block.reward !== BigInt(milestone.reward)) {
    fail('reward', `reward ${block.reward}, the milestone expects ${milestone.reward}`);
  }
  if (block.height > 1 && !block.previousBlock) {
    fail('previousBlock', 'only the genesis block has no previous block');
  }
  if (transactions.length !== block.numberOfTransactions) {
    fail(
      'numberOfTransactions',
      `header says ${block.numberOfTransactions} transactions, the block holds ${transactions.length}`,
    );
  }
  // ARK exempts the genesis block, which holds a registration and a vote per delegate.
  if (block.height > 1 && transactions.length > milestone.block.maxTransactions) {
    fail(
      'maxTransactions',
      `${transactions.length} transactions, the milestone allows ${milestone.block.maxTransactions}`,
    );
  }
  const size = transactions.reduce((sum, tx) => sum + 4 + tx.bytes.length, headerBytes.length);
  if (size > milestone.block.maxPayload) {
    fail(
      'maxPayload',
      `block is ${size} bytes, the milestone allows ${milestone.block.maxPayload}`,
    );
  }
  if (block.payloadLength !== 32 * transactions.length) {
    fail(
      'payloadLength',
      `payloadLength ${block.payloadLength}, expected ${32 * transactions.length} (32 per transaction id)`,
    );
  }
  const payloadHash = payloadHashOf(transactions.map((tx) => tx.id));
  if (block.payloadHash !== payloadHash) {
    fail('payloadHash', `payloadHash differs from sha256 of the transaction ids (${payloadHash})`);
  }
  checkTransactions(block, transactions, fail);
  return failures;
}

function checkTransactions(
  block: BlockData<unknown>,
  transactions: readonly TransactionFacts[],
  fail: (rule: BlockRuleFailure['rule'], message: string, transaction?: number) => void,
): void {
  let totalAmount = 0n;
  let totalFee = 0n;
  const seen = new Set<string>();
  transactions.forEach((tx, index) => {
    if (tx.claimedId !== undefined && tx.claimedId !== tx.id) {
      fail('transactionId', `id ${tx.claimedId} differs from the computed ${tx.id}`, index);
    }
    if (seen.has(tx.id)) fail('duplicateTransaction', `${tx.id} appears more than once`, index);
    seen.add(tx.id);
    if (tx.expiration !== undefined && tx.expiration > 0 && tx.expiration <= block.height) {
      fail('expiredTransaction', `expired at height ${tx.expiration}`, index);
    }
    totalAmount += tx.amount;
    totalFee += tx.fee;
  });
  if (totalAmount !== block.totalAmount) {
    fail('totalAmount', `totalAmount ${block.totalAmount}, transactions add up to ${totalAmount}`);
  }
  if (totalFee !== block.totalFee) {
    fail('totalFee', `totalFee ${block.totalFee}, transactions add up to ${totalFee}`);
  }
}

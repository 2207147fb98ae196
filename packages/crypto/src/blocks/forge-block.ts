import type { KeyPair } from '../identities/keys.js';
import type { Milestones } from '../networks/milestones.js';
import { transactionId } from '../transactions/transaction-hash.js';
import type { TransactionData } from '../transactions/transaction-data.js';
import type { BlockData, UnsignedBlockHeader } from './block-data.js';
import { InvalidBlockError } from './block-error.js';
import { blockId, payloadHashOf } from './block-hash.js';
import { signBlockHeader } from './sign-block.js';

export interface ForgeBlockInput {
  readonly transactions: readonly TransactionData[];
  /** The block this one follows; absent only for a genesis block. */
  readonly previousBlock?: { readonly id: string; readonly height: number };
  /** Defaults to the previous block's height + 1 (1 without a previous block). */
  readonly height?: number;
  /** Seconds since the network's epoch. */
  readonly timestamp: number;
  /** Defaults to the reward of the milestone at the height. */
  readonly reward?: bigint;
  /** Defaults to the block version of the milestone at the height. */
  readonly version?: number;
  readonly keys: KeyPair;
  readonly milestones: Milestones;
}

/**
 * A signed block of the given transactions, as ARK 3.0's forger makes it: totals summed, payload
 * hash over the transaction ids, payload length 32 per id, signed by the generator's key.
 */
export function forgeBlock(input: ForgeBlockInput): BlockData<TransactionData> {
  const height = input.height ?? (input.previousBlock ? input.previousBlock.height + 1 : 1);
  if (height > 1 && input.previousBlock === undefined) {
    throw new InvalidBlockError('previousBlock', `required for height ${height}`);
  }
  const milestone = input.milestones.at(height);
  const transactions = input.transactions.map((tx) =>
    tx.id ? tx : { ...tx, id: transactionId(tx) },
  );
  const ids = transactions.map((tx) => tx.id as string);
  const draft: UnsignedBlockHeader = {
    version: input.version ?? milestone.block.version,
    timestamp: input.timestamp,
    height,
    previousBlock: input.previousBlock?.id ?? null,
    numberOfTransactions: transactions.length,
    totalAmount: transactions.reduce((sum, tx) => sum + tx.amount, 0n),
    totalFee: transactions.reduce((sum, tx) => sum + tx.fee, 0n),
    reward: input.reward ?? BigInt(milestone.reward),
    payloadLength: 32 * transactions.length,
    payloadHash: payloadHashOf(ids),
    generatorPublicKey: input.keys.publicKey.toString('hex'),
  };
  const header = {
    ...draft,
    blockSignature: signBlockHeader(draft, input.keys.privateKey, input.milestones),
  };
  return { id: blockId(header, input.milestones), ...header, transactions };
}

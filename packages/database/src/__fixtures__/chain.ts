import { createHash } from 'node:crypto';
import type { BlockWithTransactions, StoredTransaction } from '../records.js';

const hex = (text: string) => createHash('sha256').update(text).digest('hex');

export const blockId = (height: number) => hex(`block ${height}`);

/** A chain of `blocks` linked blocks from height `from`, each with `perBlock` transfers. */
export function makeChain(
  blocks: number,
  perBlock: number,
  from = 1,
  transaction: (height: number, sequence: number) => Partial<StoredTransaction> = () => ({}),
): BlockWithTransactions[] {
  const chain: BlockWithTransactions[] = [];
  for (let height = from; height < from + blocks; height += 1) {
    const id = blockId(height);
    const transactions: StoredTransaction[] = [];
    for (let sequence = 0; sequence < perBlock; sequence += 1) {
      transactions.push({
        id: hex(`tx ${height} ${sequence}`),
        blockId: id,
        blockHeight: height,
        sequence,
        version: 2,
        timestamp: height * 8,
        nonce: BigInt(height * 100 + sequence),
        senderPublicKey: `03${hex(`sender ${sequence % 3}`)}`,
        recipientId: `ARecipient${height % 5}`,
        type: 0,
        typeGroup: 1,
        vendorField: null,
        amount: BigInt(height) * 100_000_000n,
        fee: 10_000_000n,
        asset: null,
        serialized: new Uint8Array([height % 256, sequence % 256]),
        ...transaction(height, sequence),
      });
    }
    chain.push({
      block: {
        id,
        version: 0,
        timestamp: height * 8,
        height,
        previousBlock: height === 1 ? null : blockId(height - 1),
        numberOfTransactions: perBlock,
        totalAmount: transactions.reduce((sum, t) => sum + t.amount, 0n),
        totalFee: transactions.reduce((sum, t) => sum + t.fee, 0n),
        reward: 200_000_000n,
        payloadLength: perBlock * 32,
        payloadHash: hex(`payload ${height}`),
        generatorPublicKey: `02${hex('generator')}`,
        blockSignature: hex(`signature ${height}`).repeat(2),
      },
      transactions,
    });
  }
  return chain;
}

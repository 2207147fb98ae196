import { AdminError, type AdminOperation, type StatusSection } from '@lni/kernel';
import type { Service } from '@lni/database';
import Joi from 'joi';
import type { BlockProcessor } from '../blocks/block-processor.js';
import type { PoolEntry } from '../pool/pool-entry.js';
import type { TransactionPool } from '../pool/transaction-pool.js';

const TRANSACTION_ID = /^[0-9a-f]{64}$/;

/** `pool.list`, `pool.drop`, `pool.flush`: the admin of the transaction pool. */
export function poolOperations(pool: () => Service<TransactionPool>): AdminOperation<object>[] {
  const list: AdminOperation = {
    name: 'pool.list',
    description: 'the pooled transactions, best first (fee per byte, then arrival)',
    run: () => [...pool().entries()].sort(byFeeThenArrival).map(summary),
  };
  const drop: AdminOperation<{ id: string }> = {
    name: 'pool.drop',
    description: "drop a transaction, and its sender's later ones, from the pool and its table",
    args: Joi.object({ id: Joi.string().required() }),
    run: async ({ id }) => {
      if (!TRANSACTION_ID.test(id)) {
        throw new AdminError('bad-input', `bad transaction id '${id}': 64 lower-case hex digits`);
      }
      const dropped = await pool().drop(id);
      if (dropped.length === 0)
        throw new AdminError('not-found', `transaction ${id} is not in the pool`);
      return { dropped };
    },
  };
  const flush: AdminOperation = {
    name: 'pool.flush',
    description: 'drop every transaction from the pool and its table',
    run: async () => ({ dropped: await pool().dropAll() }),
  };
  return [list, drop, flush].map((operation) => operation as AdminOperation<object>);
}

/** `chain` and `pool` of `kernel status`. */
export function ledgerStatusSections(
  blocks: () => Service<BlockProcessor>,
  pool: () => Service<TransactionPool>,
): StatusSection[] {
  return [
    {
      name: 'chain',
      read: () => {
        const last = blocks().lastBlock;
        if (!last) return { height: 0 };
        return { height: last.height, id: last.id, timestamp: last.timestamp };
      },
    },
    { name: 'pool', read: () => ({ size: pool().size, bytes: pool().bytes }) },
  ];
}

function summary(entry: PoolEntry) {
  const { tx } = entry;
  return {
    id: entry.id,
    sender: entry.sender,
    type: tx.type,
    nonce: tx.nonce.toString(),
    fee: tx.fee.toString(),
    amount: tx.amount.toString(),
    recipientId: tx.recipientId,
    addedAt: new Date(entry.addedAt).toISOString(),
  };
}

function byFeeThenArrival(a: PoolEntry, b: PoolEntry): number {
  return b.feePerByte - a.feePerByte || a.addedAt - b.addedAt;
}

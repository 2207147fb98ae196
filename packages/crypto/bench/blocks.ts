import {
  addressFromPassphrase,
  deserializeBlock,
  forgeBlock,
  keysFromPassphrase,
  Milestones,
  serializeFullBlock,
  transfer,
  verifyBlock,
  verifyBlockInPool,
  VerificationPool,
  type TransactionData,
} from '../src/index.js';
import { latency, type BenchRow } from './measure.js';

const NETWORK = 23;
// ARK testnet's first milestone, with room for the 500-transfer block.
const milestones = new Milestones([
  {
    height: 1,
    reward: 0,
    activeDelegates: 51,
    blocktime: 8,
    block: { version: 0, maxTransactions: 500, maxPayload: 2_097_152 },
    epoch: '2017-03-21T13:00:00.000Z',
    fees: { staticFees: { transfer: 10_000_000 } },
    vendorFieldLength: 64,
    aip11: true,
  },
]);

function blockBytes(count: number): Buffer {
  const recipient = addressFromPassphrase('bench recipient', NETWORK);
  const senders = Array.from({ length: 25 }, (_, i) => keysFromPassphrase(`bench sender ${i}`));
  const transactions: TransactionData[] = Array.from({ length: count }, (_, i) =>
    transfer({ network: NETWORK })
      .recipientId(recipient)
      .amount(BigInt(1 + i))
      .nonce(BigInt(1 + Math.floor(i / senders.length)))
      .vendorField(`payment ${i}`)
      .sign(senders[i % senders.length]!)
      .build(),
  );
  const block = forgeBlock({
    transactions,
    previousBlock: { id: '1234567890', height: 1 },
    timestamp: 1000,
    keys: keysFromPassphrase('bench generator'),
    milestones,
  });
  return serializeFullBlock(block, milestones);
}

function assertVerified(result: { verified: boolean; failures: readonly unknown[] }): void {
  if (!result.verified) throw new Error(`bench: block rejected ${JSON.stringify(result.failures)}`);
}

/**
 * Full verification of a block of transfers as a node receives it: deserialize the bytes, then
 * check every rule and signature, on this thread and through a pool of 2 workers.
 */
export async function benchBlocks(runs = 30): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const pool = new VerificationPool({ size: 2 });
  try {
    for (const count of [150, 500]) {
      const bytes = blockBytes(count);
      const local = await latency(
        () => assertVerified(verifyBlock(deserializeBlock(bytes, milestones), milestones)),
        runs,
      );
      rows.push({
        name: `block of ${count} transfers, full verification, 1 thread`,
        ...local,
        note: `${(bytes.length / 1024).toFixed(0)} KiB`,
      });
      const pooled = await latency(
        async () =>
          assertVerified(
            await verifyBlockInPool(deserializeBlock(bytes, milestones), milestones, pool),
          ),
        runs,
      );
      rows.push({ name: `block of ${count} transfers, full verification, pool of 2`, ...pooled });
    }
  } finally {
    await pool.close();
  }
  return rows;
}

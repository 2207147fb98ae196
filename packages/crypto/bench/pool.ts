import { VerificationPool, type VerificationItem } from '../src/index.js';
import { throughputAsync, type BenchRow } from './measure.js';
import { signedItems } from './signatures.js';

const BATCH = 4096;

/** Batch verification of Schnorr items through the worker pool with 1 and 2 workers. */
export async function benchPool(ms = 2000): Promise<BenchRow[]> {
  const signed = signedItems(BATCH);
  const items: VerificationItem[] = signed.hashes.map((hash, i) => ({
    kind: 'schnorr',
    hash,
    signature: signed.schnorr[i]!,
    publicKey: signed.publicKeys[i]!,
  }));
  const rows: BenchRow[] = [];
  for (const size of [1, 2]) {
    const pool = new VerificationPool({ size });
    try {
      const perSecond = await throughputAsync(
        async () => {
          if (!(await pool.verifyBatch(items))) throw new Error('bench: valid batch rejected');
        },
        BATCH,
        ms,
      );
      rows.push({
        name: `Schnorr batch verify, pool of ${size} worker${size > 1 ? 's' : ''}`,
        opsPerSecond: perSecond,
        note: `${BATCH} signatures per call`,
      });
    } finally {
      await pool.close();
    }
  }
  return rows;
}

import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Logger } from '@lni/kernel';
import type { TransactionPool } from './transaction-pool.js';

interface PoolFileContent {
  readonly version: 1;
  readonly transactions: readonly { readonly hex: string; readonly addedAt: number }[];
}

/**
 * Keeps the pool across restarts in one JSON file of the data directory. Written to a
 * temporary file and renamed, so a crash mid-write leaves the previous file intact.
 */
export class PoolFile {
  constructor(
    readonly path: string,
    private readonly logger: Logger,
  ) {}

  async save(pool: TransactionPool): Promise<number> {
    const transactions = [...pool.entries()].map((entry) => ({
      hex: entry.bytes.toString('hex'),
      addedAt: entry.addedAt,
    }));
    const content: PoolFileContent = { version: 1, transactions };
    await mkdir(dirname(this.path), { recursive: true });
    const temporary = `${this.path}.tmp`;
    await writeFile(temporary, JSON.stringify(content));
    await rename(temporary, this.path);
    return transactions.length;
  }

  /**
   * Re-submits the saved transactions (each judged again on current state, with its original
   * arrival time); returns how many the pool took back. A missing file is an empty pool.
   */
  async restore(pool: TransactionPool): Promise<number> {
    let content: PoolFileContent;
    try {
      content = JSON.parse(await readFile(this.path, 'utf8')) as PoolFileContent;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      this.logger.warn({ err: error, path: this.path }, 'Pool file unreadable; starting empty');
      return 0;
    }
    // Oldest first, so each sender's sequence is re-submitted in nonce order.
    const saved = [...(content.transactions ?? [])].sort((a, b) => a.addedAt - b.addedAt);
    let restored = 0;
    for (const { hex, addedAt } of saved) {
      const result = await pool.addSerialized([hex], addedAt, 'restored');
      restored += result.accepted.length;
    }
    this.logger.info({ restored, saved: saved.length }, 'Pool restored');
    return restored;
  }
}

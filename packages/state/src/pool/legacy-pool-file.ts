import { readFile, rm } from 'node:fs/promises';
import type { SavedTransaction } from './transaction-pool.js';

interface PoolFileContent {
  readonly version: 1;
  readonly transactions: readonly { readonly hex: string; readonly addedAt: number }[];
}

/**
 * `pool.json`, where earlier releases saved the pool on a clean stop. It is read once, so a node
 * upgraded with transactions waiting keeps them, then removed: the pool now lives in the database.
 */
export class LegacyPoolFile {
  constructor(readonly path: string) {}

  /**
   * The saved transactions, oldest first (each sender's in nonce order); none when there is no
   * file. Throws when the file exists but cannot be read as a pool file.
   */
  async read(): Promise<SavedTransaction[]> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const content = JSON.parse(text) as Partial<PoolFileContent> | null;
    const transactions = content?.transactions;
    if (
      !Array.isArray(transactions) ||
      !transactions.every((tx) => typeof tx?.hex === 'string' && Number.isFinite(tx.addedAt))
    ) {
      throw new Error('not a pool file: expected "transactions" of { hex, addedAt }');
    }
    return [...transactions]
      .sort((a, b) => a.addedAt - b.addedAt)
      .map(({ hex, addedAt }) => ({ serialized: Buffer.from(hex, 'hex'), addedAt }));
  }

  remove(): Promise<void> {
    return rm(this.path, { force: true });
  }
}

import type { BlockStore, FullBlock } from '../block-store.js';

/** Blocks kept in memory, in height order: what a processor needs of a store, without a database. */
export class MemoryBlockStore implements BlockStore {
  readonly blocks: FullBlock[] = [];
  lastBlock = async () => this.blocks[this.blocks.length - 1];
  blockById = async (id: string) => this.blocks.find((b) => b.id === id);
  blocksInRange = async (from: number, to: number) =>
    this.blocks.filter((b) => b.height >= from && b.height <= to);
  save = async (block: FullBlock) => {
    this.blocks.push(block);
  };
  deleteAbove = async (height: number) => {
    this.blocks.splice(height);
  };
  lastForgedBy = async () => undefined;
  transactionById = async () => undefined;
}

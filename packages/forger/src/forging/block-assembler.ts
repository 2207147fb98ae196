import type { KeyPair } from '@lni/crypto';

/** What a new block is made of; the assembler signs it with the delegate's keys. */
export interface BlockTemplate {
  readonly keys: KeyPair;
  readonly previousBlock: { readonly id: string; readonly height: number };
  readonly timestamp: number;
  readonly reward: bigint;
  /** Serialized (hex) transactions in block order. */
  readonly transactions: readonly string[];
}

export interface AssembledBlock {
  readonly id: string;
  readonly height: number;
  readonly numberOfTransactions: number;
  /** The serialized block as it travels over P2P. */
  readonly serialized: Buffer;
}

export type BlockAssembler = (template: BlockTemplate) => AssembledBlock;

import type { LastBlockSummary } from '@lni/state/contracts';

/** Where the wallet table is: its head row and the block it names, as one snapshot read them. */
export interface LedgerHead {
  readonly height: number;
  readonly blockId: string;
  readonly supply: bigint;
  readonly lastBlock: LastBlockSummary;
}

/**
 * The head the synchronous parts of the ledger answer from (supply, tip, chain context), and
 * the delegates' usernames by public key; the head follower replaces both when the head moves.
 */
export class HeadCache {
  #head: LedgerHead | undefined;
  #usernames: ReadonlyMap<string, string> = new Map();

  get head(): LedgerHead | undefined {
    return this.#head;
  }

  usernameOf(publicKey: string): string | undefined {
    return this.#usernames.get(publicKey);
  }

  update(head: LedgerHead | undefined, usernames: ReadonlyMap<string, string>): void {
    this.#head = head;
    this.#usernames = usernames;
  }
}

import type { EntityManager } from 'typeorm';

/**
 * Work another plugin adds to a shared transaction: it runs inside it, with its manager, after
 * the owner's own writes. What it returns (if anything) runs once the transaction committed,
 * never if it rolled back: where to start sending what was written (an outbox).
 */
export type TransactionParticipant<Subject> = (
  manager: EntityManager,
  subject: Subject,
) => Promise<(() => void) | void>;

/** The connection's transactions, as a shared transaction needs them. */
export interface TransactionSource {
  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T>;
}

/**
 * One kind of transaction that its owner runs and other plugins join: state runs one per block
 * it stores, and a plugin that must write something with that block (webhook deliveries) joins
 * it, so both commit together or neither does. The subject is what the owner says each
 * transaction is about (its type is the owner's contract); the database knows nothing of it.
 */
export class SharedTransaction<Subject> {
  readonly #participants: TransactionParticipant<Subject>[] = [];

  constructor(private readonly deps: { readonly database: TransactionSource }) {}

  /** Adds `participant` to every later transaction of this kind; the returned function leaves. */
  join(participant: TransactionParticipant<Subject>): () => void {
    this.#participants.push(participant);
    return () => {
      const index = this.#participants.indexOf(participant);
      if (index >= 0) this.#participants.splice(index, 1);
    };
  }

  get joined(): boolean {
    return this.#participants.length > 0;
  }

  /**
   * Runs `work`, then every participant, in one transaction; after the commit, what the
   * participants asked for. A participant's failure rolls back the whole transaction.
   */
  async run<T>(subject: Subject, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    const afterCommit: (() => void)[] = [];
    const result = await this.deps.database.transaction(async (manager) => {
      const value = await work(manager);
      for (const participant of this.#participants) {
        const then = await participant(manager, subject);
        if (then) afterCommit.push(then);
      }
      return value;
    });
    for (const then of afterCommit) then();
    return result;
  }
}

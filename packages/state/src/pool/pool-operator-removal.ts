import type { Logger } from '@lni/kernel';
import type { PoolAnnouncer } from './pool-announcer.js';
import type { PoolIndex } from './pool-index.js';
import type { PoolKeeper } from './pool-keeper.js';

export interface PoolOperatorRemovalDeps {
  readonly index: PoolIndex;
  readonly keeper: PoolKeeper;
  readonly announcer: PoolAnnouncer;
  readonly logger: Logger;
}

/**
 * What an operator takes out of the pool by hand (`kernel pool drop`, `kernel pool flush`): gone
 * from memory at once, from storage when the call resolves, announced as dropped.
 */
export class PoolOperatorRemoval {
  readonly #deps: PoolOperatorRemovalDeps;

  constructor(deps: PoolOperatorRemovalDeps) {
    this.#deps = deps;
  }

  /**
   * Drops the transaction and its sender's later ones, which could no longer apply without it;
   * resolves with their ids, none when it is not pooled.
   */
  async drop(id: string): Promise<string[]> {
    const { index } = this.#deps;
    const entry = index.get(id);
    if (!entry) return [];
    const list = index.senderEntries(entry.sender);
    const gone = list.slice(list.indexOf(entry));
    for (const each of gone) index.remove(each, 'dropped');
    const ids = gone.map((each) => each.id);
    this.#deps.logger.info({ id, dropped: ids.length }, 'Pool transaction dropped by the operator');
    await this.#settle();
    return ids;
  }

  /** Empties the pool; resolves with how many transactions it held. */
  async dropAll(): Promise<number> {
    const { index } = this.#deps;
    const all = [...index.entries()];
    for (const entry of all) index.remove(entry, 'dropped');
    this.#deps.logger.info({ dropped: all.length }, 'Pool flushed by the operator');
    await this.#settle();
    return all.length;
  }

  async #settle(): Promise<void> {
    const { index, keeper, announcer } = this.#deps;
    keeper.forgetRemoved();
    announcer.settle((id) => index.has(id));
    await keeper.flush();
  }
}

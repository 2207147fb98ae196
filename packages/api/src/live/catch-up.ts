import Boom from '@hapi/boom';
import type {
  BlockQuery,
  Criteria,
  Service,
  StoredTransaction,
  TransactionQuery,
} from '@lni/database';
import type { LedgerReader } from '@lni/state/contracts';
import { blockResource, type BlockResource } from '../resources/block.js';
import { transactionResource, type TransactionResource } from '../resources/transaction.js';
import { storedTransactionView } from '../routes/stored-views.js';
import { addressCriterion } from '../routes/transaction-search.js';

/** Messages in one answer; a block's transactions are never split across answers. */
export const CATCH_UP_PAGE = 100;
/** More than any block holds (the milestones' maxTransactions): one block's transactions. */
const WHOLE_BLOCK = 10_000;

/** The channels whose messages can be replayed from storage. */
export const REPLAYABLE = [
  '/events/block.applied',
  '/events/transaction.applied',
  '/wallets/{address}/transactions',
] as const;

export interface CatchUpDeps {
  readonly ledger: () => LedgerReader;
  readonly blocks: () => Service<BlockQuery>;
  readonly transactions: () => Service<TransactionQuery>;
  /** How far below the tip `since` may be. */
  readonly catchUpBlocks: number;
  readonly isAddress: (value: string) => boolean;
}

export interface CatchUpAnswer {
  /** The messages the subscription delivered above `since`, oldest first, as it delivered them. */
  readonly data: readonly (BlockResource | TransactionResource)[];
  readonly meta: {
    readonly channel: string;
    readonly since: number;
    /** Everything up to this height is in `data`: ask again with `since=until` if incomplete. */
    readonly until: number;
    /** True when `until` is the tip: subscribe and you have missed nothing. */
    readonly complete: boolean;
    /** The block now at `since`: a client that saw another id there was on a fork since. */
    readonly sinceBlock?: { readonly height: number; readonly id: string };
  };
}

/**
 * What a subscriber missed while away, from storage: for a channel and a height it saw, the
 * messages of the blocks above it, oldest first, at most CATCH_UP_PAGE per answer (cut between
 * blocks), no further back than `catchUpBlocks` below the tip.
 */
export class CatchUp {
  constructor(private readonly deps: CatchUpDeps) {}

  async since(channel: string, since: number): Promise<CatchUpAnswer> {
    const ledger = this.deps.ledger();
    // Read before the queries: every block up to it is stored when they run.
    const tip = ledger.chainContext().height;
    const oldest = tip - this.deps.catchUpBlocks;
    if (since < oldest) {
      throw Boom.badData(
        `since: at most ${this.deps.catchUpBlocks} blocks below the tip (${tip}), so ${oldest} or above; read older history with GET /api/blocks or /api/transactions`,
      );
    }
    const sinceBlock = await this.#blockAt(since);
    const answer = await this.#messages(channel, since, tip);
    return {
      data: answer.data,
      meta: {
        channel,
        since,
        until: answer.until,
        complete: answer.complete,
        ...(sinceBlock && { sinceBlock }),
      },
    };
  }

  async #messages(
    channel: string,
    since: number,
    tip: number,
  ): Promise<{ data: CatchUpAnswer['data']; until: number; complete: boolean }> {
    if (channel === '/events/block.applied') return this.#blocks(since, tip);
    if (channel === '/events/transaction.applied') return this.#transactions(since, tip, []);
    const address = /^\/wallets\/([^/]+)\/transactions$/.exec(channel)?.[1];
    if (address !== undefined) {
      if (!this.deps.isAddress(address)) {
        throw Boom.badData(`channel: ${address} is not an address of this network`);
      }
      return this.#transactions(since, tip, [await addressCriterion(address, this.deps.ledger())]);
    }
    throw Boom.badData(
      `channel: only ${REPLAYABLE.join(', ')} are replayed; read the others' current state from the REST routes`,
    );
  }

  async #blocks(since: number, tip: number) {
    const page = await this.deps.blocks().search({
      criteria: { field: 'height', from: since + 1 },
      orderBy: [{ field: 'height', direction: 'asc' }],
      limit: CATCH_UP_PAGE,
      offset: 0,
    });
    const context = this.deps.ledger().chainContext();
    const data = page.results.map((block) => blockResource(block, context));
    const last = page.results.at(-1)?.height ?? since;
    const complete = page.results.length < CATCH_UP_PAGE;
    return { data, until: complete ? Math.max(tip, last) : last, complete };
  }

  async #transactions(since: number, tip: number, scope: readonly Criteria[]) {
    const search = (range: Criteria, limit: number) =>
      this.deps.transactions().search({
        criteria: { and: [range, ...scope] },
        orderBy: [
          { field: 'blockHeight', direction: 'asc' },
          { field: 'sequence', direction: 'asc' },
        ],
        limit,
        offset: 0,
      });
    const rows = (await search({ field: 'blockHeight', from: since + 1 }, CATCH_UP_PAGE + 1))
      .results;
    let kept: readonly StoredTransaction[] = rows;
    let until: number;
    let complete = true;
    if (rows.length <= CATCH_UP_PAGE) {
      until = Math.max(tip, rows.at(-1)?.blockHeight ?? since);
    } else {
      // The page ends inside a block: stop before it, or give that whole block if it is the first.
      complete = false;
      const cut = (rows[CATCH_UP_PAGE] as StoredTransaction).blockHeight;
      kept = rows.filter((row) => row.blockHeight < cut);
      until = cut - 1;
      if (kept.length === 0) {
        kept = (await search({ field: 'blockHeight', eq: cut }, WHOLE_BLOCK)).results;
        until = cut;
      }
    }
    const context = this.deps.ledger().chainContext();
    const data = kept.map((row) => transactionResource(storedTransactionView(row), context));
    return { data, until, complete };
  }

  async #blockAt(height: number): Promise<{ height: number; id: string } | undefined> {
    if (height < 1) return undefined;
    const page = await this.deps.blocks().search({
      criteria: { field: 'height', eq: height },
      limit: 1,
      offset: 0,
    });
    const block = page.results[0];
    return block && { height: block.height, id: block.id };
  }
}

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DELEGATE_VIEW_FIELDS,
  WALLET_FIELDS,
  walletField,
  WalletQueryEngine,
  WalletRepository,
  type FieldValue,
} from '@lni/state';
import type { WalletCondition, WalletSearch, WalletSearchPage } from '@lni/state/contracts';
import type { Database } from '@lni/database';
import {
  openLedgerDatabase,
  postgresSkipReason,
  writeHead,
  writeWallets,
} from '../__fixtures__/wallet-table.js';
import { randomWallets } from '../__fixtures__/random-wallets.js';
import { SqlWalletSearch } from './sql-wallet-search.js';
import { StatementBatches } from './statement-batches.js';
import { WalletViews } from './wallet-views.js';
import type { SearchScope } from './search-fields.js';

const WALLETS = randomWallets(400, 40, 29);
const FAR = Date.now() + 3_600_000;

/** The names a scope's searches use, each with the values the wallets hold and a few others. */
function fieldsOf(scope: SearchScope) {
  const names =
    scope === 'wallets' ? WALLET_FIELDS.map((f) => f.path) : Object.keys(DELEGATE_VIEW_FIELDS);
  return names.map((name) => {
    const field = walletField(scope === 'wallets' ? name : (DELEGATE_VIEW_FIELDS[name] as string));
    if (!field) throw new Error(name);
    const held = WALLETS.map((w) => field.read(w)).filter((v): v is FieldValue => v !== undefined);
    const others: FieldValue[] =
      field.type === 'bigint'
        ? [3n]
        : field.type === 'number'
          ? [2.5]
          : field.type === 'string'
            ? ['zz']
            : [];
    return { name, type: field.type, values: [...new Set([...held.slice(0, 60), ...others])] };
  });
}

const condition = (scope: SearchScope): fc.Arbitrary<WalletCondition> =>
  fc.constantFrom(...fieldsOf(scope)).chain(({ name, type, values }) => {
    const value = fc.constantFrom(...values);
    const inCondition = fc
      .uniqueArray(value, { minLength: 1, maxLength: 3 })
      .map((list): WalletCondition => ({ kind: 'in', field: name, values: list }));
    if (type === 'string' || type === 'boolean') return inCondition;
    const range = fc
      .record({
        from: fc.option(value, { nil: undefined }),
        to: fc.option(value, { nil: undefined }),
      })
      .map(({ from, to }): WalletCondition => ({
        kind: 'range',
        field: name,
        ...(from !== undefined && { from }),
        ...(to !== undefined && { to }),
      }));
    return fc.oneof(inCondition, range);
  });

const searchOf = (scope: SearchScope): fc.Arbitrary<WalletSearch> =>
  fc.record({
    conditions: fc.array(condition(scope), { maxLength: 3 }),
    orderBy: fc.array(
      fc.record({
        field: fc.constantFrom(...fieldsOf(scope).map((f) => f.name)),
        direction: fc.constantFrom('asc' as const, 'desc' as const),
      }),
      { maxLength: 2 },
    ),
    offset: fc.integer({ min: 0, max: 30 }),
    limit: fc.integer({ min: 0, max: 25 }),
  });

const shape = (page: WalletSearchPage) => ({
  addresses: page.results.map((w) => w.address),
  totalCount: page.totalCount,
  next: page.next,
});

describe.skipIf(postgresSkipReason)('SQL wallet search against the in-memory engine', () => {
  let database: Database;
  let dispose: () => Promise<void>;
  let search: SqlWalletSearch;
  const repository = new WalletRepository();
  repository.load(WALLETS);
  const engine = new WalletQueryEngine({ walletRepository: repository, countBudget: Infinity });
  const inMemory = (scope: SearchScope, query: WalletSearch) =>
    scope === 'wallets' ? engine.wallets(query) : engine.delegates(query);

  beforeAll(async () => {
    ({ database, dispose } = await openLedgerDatabase());
    await writeWallets(database, WALLETS, 7);
    await writeHead(database, {
      height: 7,
      blockId: 'b7',
      supply: 1n,
      walletCount: WALLETS.length,
    });
    search = new SqlWalletSearch({
      database,
      statements: new StatementBatches({ database }),
      views: new WalletViews(),
    });
  });
  afterAll(() => dispose?.());

  for (const scope of ['wallets', 'delegates'] as const) {
    it(`answers random ${scope} searches as the engine does: page, exact total, cursor and the page after it`, async () => {
      await fc.assert(
        fc.asyncProperty(searchOf(scope), async (query) => {
          const sql = await search.search(scope, query, FAR);
          const memory = inMemory(scope, query);
          expect(shape(sql)).toEqual(shape(memory));
          expect(sql.results).toEqual(memory.results);
          if (memory.next === undefined) return;
          // The page after the cursor: keyset, whatever the offset was.
          const after = { ...query, offset: 0, after: memory.next };
          expect(shape(await search.search(scope, after, FAR))).toEqual(
            shape(inMemory(scope, after)),
          );
        }),
        { numRuns: 250, seed: 29 },
      );
    });
  }

  for (const scope of ['wallets', 'delegates'] as const) {
    it(`answers random ${scope} pages asked at once each as the engine does, read together`, async () => {
      // Pages without conditions, so of one statement's text per ordering (and cursor or not),
      // each with its own offset, limit or cursor: asked at once, they are read together.
      const groups = new Map<string, WalletSearch[]>();
      for (const sampled of fc.sample(searchOf(scope), { numRuns: 80, seed: 31 })) {
        const query = { ...sampled, conditions: [] };
        const next = inMemory(scope, query).next;
        const variants = next === undefined ? [query] : [query, { ...query, after: next }];
        for (const variant of variants) {
          const key = JSON.stringify([variant.orderBy, variant.after !== undefined]);
          groups.set(key, [...(groups.get(key) ?? []), variant]);
        }
      }
      if (scope === 'wallets') {
        // The voters of each delegate, a page each: one equality on the vote index's prefix.
        groups.set(
          'voters',
          WALLETS.slice(0, 40).map((delegate, index) => ({
            conditions: [
              { kind: 'in', field: 'attributes.vote', values: [delegate.publicKey as string] },
            ],
            orderBy: [{ field: 'balance', direction: 'desc' }],
            offset: index % 3,
            limit: 1 + (index % 4),
          })),
        );
      }
      // Balances in a range, ordered by balance: read from the balance index at the bound.
      groups.set(
        `${scope} ranges`,
        WALLETS.slice(0, 30).map((wallet, index) => ({
          conditions: [
            {
              kind: 'range',
              field: scope === 'wallets' ? 'balance' : 'votes',
              from: index % 2 === 0 ? wallet.balance / 2n : 0n,
              to: wallet.balance,
            },
          ],
          orderBy: [
            {
              field: scope === 'wallets' ? 'balance' : 'votes',
              direction: index % 3 ? 'desc' : 'asc',
            },
          ],
          offset: index % 5,
          limit: 1 + (index % 7),
        })),
      );
      expect(Math.max(...[...groups.values()].map((group) => group.length))).toBeGreaterThan(4);
      for (const group of groups.values()) {
        const pages = await Promise.all(group.map((query) => search.search(scope, query, FAR)));
        pages.forEach((page, index) => {
          const memory = inMemory(scope, group[index] as WalletSearch);
          expect(shape(page)).toEqual(shape(memory));
          expect(page.results).toEqual(memory.results);
        });
      }
    });
  }

  it('pages through every delegate by cursor in the engine order, wallets without a rank last', async () => {
    const query: WalletSearch = {
      conditions: [],
      orderBy: [{ field: 'rank', direction: 'asc' }],
      offset: 0,
      limit: 7,
    };
    const seen: string[] = [];
    let page = await search.search('delegates', query, FAR);
    for (;;) {
      seen.push(...page.results.map((w) => w.address));
      if (page.next === undefined) break;
      page = await search.search('delegates', { ...query, after: page.next }, FAR);
    }
    const all = engine.delegates({ ...query, limit: 1_000 }).results.map((w) => w.address);
    expect(seen).toEqual(all);
    expect(seen).toHaveLength(40);
  });

  it('refuses bad input as the engine does, naming the field', async () => {
    const bad: [SearchScope, WalletSearch][] = [
      [
        'wallets',
        {
          conditions: [{ kind: 'in', field: 'nope', values: [1] }],
          orderBy: [],
          offset: 0,
          limit: 1,
        },
      ],
      [
        'delegates',
        {
          conditions: [{ kind: 'in', field: 'votes', values: ['x'] }],
          orderBy: [],
          offset: 0,
          limit: 1,
        },
      ],
      [
        'wallets',
        {
          conditions: [{ kind: 'range', field: 'attributes.vote', from: 'a' }],
          orderBy: [],
          offset: 0,
          limit: 1,
        },
      ],
      [
        'wallets',
        {
          conditions: [{ kind: 'in', field: 'balance', values: [] }],
          orderBy: [],
          offset: 0,
          limit: 1,
        },
      ],
      [
        'wallets',
        {
          conditions: [],
          orderBy: [{ field: 'balance', direction: 'up' as 'asc' }],
          offset: 0,
          limit: 1,
        },
      ],
      ['wallets', { conditions: [], orderBy: [], offset: -1, limit: 1 }],
      [
        'wallets',
        {
          conditions: [],
          orderBy: [{ field: 'balance', direction: 'asc' }],
          offset: 0,
          limit: 1,
          after: ['x', 'A'],
        },
      ],
      ['wallets', { conditions: [], orderBy: [], offset: 0, limit: 1, after: [] }],
    ];
    for (const [scope, query] of bad) {
      const expected = (() => {
        try {
          inMemory(scope, query);
        } catch (error) {
          return error as Error & { code: string };
        }
        throw new Error(`the engine took ${JSON.stringify(query)}`);
      })();
      await expect(search.search(scope, query, FAR)).rejects.toMatchObject({
        code: expected.code,
        message: expected.message,
      });
    }
  });

  it('refuses a search whose deadline has passed as busy (the API answers 503), without running it', async () => {
    await expect(
      search.search(
        'wallets',
        { conditions: [], orderBy: [], offset: 0, limit: 1 },
        Date.now() - 1,
      ),
    ).rejects.toMatchObject({ code: 'ERR_DB_SEARCH_TIMEOUT' });
  });
});

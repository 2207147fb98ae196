import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '@lni/database';
import type { WalletSearch } from '@lni/state/contracts';
import { openLedgerDatabase, postgresSkipReason, writeHead } from '../__fixtures__/wallet-table.js';
import type { SearchScope } from './search-fields.js';
import { ROWS_BY_ADDRESS_SQL } from './sql-wallet-search.js';
import { compileWalletSearch } from './wallet-search-sql.js';
import { FIND_WALLET_SQL } from '../sql-ledger-reader.js';
import { batchedStatement } from './statement-batches.js';

const WALLETS = 20_000;
const KEY = `02${'0'.repeat(64)}`;

interface PlanNode {
  readonly 'Node Type': string;
  readonly 'Relation Name'?: string;
  readonly 'Index Name'?: string;
  readonly Plans?: readonly PlanNode[];
}

function literalOf(value: unknown): string {
  if (Array.isArray(value)) return `ARRAY[${value.map(literalOf).join(', ')}]`;
  if (typeof value === 'string') return `'${value.replace(/'/g, "''")}'`;
  return String(value);
}

function nodesOf(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodesOf)];
}

const page = (search: Partial<WalletSearch>): WalletSearch => ({
  conditions: [],
  orderBy: [],
  offset: 0,
  limit: 100,
  ...search,
});

/** The spec's wallet and delegate routes as the API hands them to the ledger. */
const ROUTES: [string, SearchScope, WalletSearch, string][] = [
  [
    'GET /api/wallets, /api/wallets/top',
    'wallets',
    page({ orderBy: [{ field: 'balance', direction: 'desc' }] }),
    'wallets_balance_c',
  ],
  [
    'GET /api/wallets, the page after a cursor',
    'wallets',
    page({ orderBy: [{ field: 'balance', direction: 'desc' }], after: ['5000', 'W77'] }),
    'wallets_balance_c',
  ],
  [
    'GET /api/wallets?balance.from=&balance.to=',
    'wallets',
    page({
      conditions: [{ kind: 'range', field: 'balance', from: 35_000n, to: 36_000n }],
      orderBy: [{ field: 'balance', direction: 'desc' }],
    }),
    'wallets_balance_c',
  ],
  [
    'GET /api/wallets?orderBy=address',
    'wallets',
    page({ orderBy: [{ field: 'address', direction: 'asc' }] }),
    'wallets_pkey',
  ],
  [
    'GET /api/delegates',
    'delegates',
    page({ orderBy: [{ field: 'rank', direction: 'asc' }] }),
    'wallets_delegate_rank_c',
  ],
  [
    'GET /api/delegates?isResigned=false',
    'delegates',
    page({
      conditions: [{ kind: 'in', field: 'isResigned', values: [false] }],
      orderBy: [{ field: 'rank', direction: 'asc' }],
    }),
    'wallets_delegate_rank_c',
  ],
  [
    'GET /api/delegates?orderBy=votes:desc',
    'delegates',
    page({ orderBy: [{ field: 'votes', direction: 'desc' }] }),
    'wallets_delegate_vote_balance_c',
  ],
  [
    'GET /api/delegates?username=a,b',
    'delegates',
    page({
      conditions: [{ kind: 'in', field: 'username', values: ['d7', 'd9'] }],
      orderBy: [{ field: 'rank', direction: 'asc' }],
    }),
    'wallets_delegate_username',
  ],
  [
    'GET /api/wallets?publicKey=',
    'wallets',
    page({ conditions: [{ kind: 'in', field: 'publicKey', values: [KEY] }] }),
    'wallets_public_key',
  ],
  [
    'GET /api/delegates/{id}/voters',
    'wallets',
    page({
      conditions: [{ kind: 'in', field: 'attributes.vote', values: [KEY] }],
      orderBy: [{ field: 'balance', direction: 'desc' }],
    }),
    'wallets_vote_c',
  ],
  [
    'GET /api/locks',
    'wallets',
    page({
      conditions: [{ kind: 'range', field: 'attributes.htlc.lockedBalance', from: 1n }],
    }),
    'wallets_htlc_locked_balance',
  ],
];

describe.skipIf(postgresSkipReason)('indexes of the wallet and delegate routes', () => {
  let database: Database;
  let dispose: () => Promise<void>;

  beforeAll(async () => {
    ({ database, dispose } = await openLedgerDatabase());
    // A table of the shape a chain leaves: a few delegates, a tenth of wallets voting, few locks.
    await database.manager.query(
      `INSERT INTO wallets (address, public_key, balance, nonce, attributes, updated_height, vote,
         delegate_username, delegate_rank, delegate_vote_balance, delegate_resigned,
         htlc_locked_balance)
       SELECT 'W' || i, '03' || lpad(to_hex(i), 64, '0'), (i * 7919) % 100000, 0, '{}', 1,
         CASE WHEN i % 10 = 0 THEN '02' || lpad(to_hex(i % 51), 64, '0') END,
         CASE WHEN i <= 200 THEN 'd' || i END, CASE WHEN i <= 200 THEN i END,
         CASE WHEN i <= 200 THEN i * 1000 END, CASE WHEN i <= 200 THEN i > 190 END,
         CASE WHEN i % 1000 = 0 THEN 5 END
       FROM generate_series(1, ${WALLETS}) i`,
    );
    await writeHead(database, { height: 1, blockId: '1', supply: 0n, walletCount: WALLETS });
    await database.manager.query('VACUUM ANALYZE wallets');
  });
  afterAll(() => dispose?.());

  const planOf = async (text: string, values: readonly unknown[]) => {
    const [{ 'QUERY PLAN': plans }] = (await database.manager.query(
      `EXPLAIN (FORMAT JSON) ${text}`,
      values as unknown[],
    )) as [{ 'QUERY PLAN': [{ Plan: PlanNode }] }];
    return nodesOf(plans[0].Plan);
  };

  /** The plan PostgreSQL keeps for every value, as the searches that ask for it run. */
  let prepared = 0;
  const genericPlanOf = (text: string, values: readonly unknown[]) =>
    database.manager.transaction(async (manager) => {
      const name = `generic_plan_${(prepared += 1)}`;
      await manager.query('SET LOCAL plan_cache_mode = force_generic_plan');
      await manager.query(`PREPARE ${name} AS ${text}`);
      try {
        // EXECUTE takes its arguments as SQL, not as bound parameters.
        const [{ 'QUERY PLAN': plans }] = (await manager.query(
          `EXPLAIN (FORMAT JSON) EXECUTE ${name}(${values.map(literalOf).join(', ')})`,
        )) as [{ 'QUERY PLAN': [{ Plan: PlanNode }] }];
        return nodesOf(plans[0].Plan);
      } finally {
        await manager.query(`DEALLOCATE ${name}`);
      }
    });

  it('the wallets of a page by address, and a wallet by id, from their indexes in the plan kept for every value', async () => {
    const rows = await genericPlanOf(ROWS_BY_ADDRESS_SQL, [['W1', 'W2']]);
    expect(rows.filter((n) => n['Node Type'] === 'Seq Scan')).toEqual([]);
    expect(rows.map((n) => n['Index Name'])).toContain('wallets_pkey');
    const found = await genericPlanOf(FIND_WALLET_SQL, ['W77']);
    expect(found.filter((n) => n['Node Type'] === 'Seq Scan')).toEqual([]);
    const together = await genericPlanOf(batchedStatement(FIND_WALLET_SQL), [[['W77'], ['d7']]]);
    expect(together.filter((n) => n['Node Type'] === 'Seq Scan')).toEqual([]);
  });

  it('GET /api/wallets/{id}: an address, public key or username from their indexes, one or several in a statement', async () => {
    const ids = ['W77', `03${'0'.repeat(62)}4d`, 'd7'];
    const statements = [
      ...ids.map((id) => [FIND_WALLET_SQL, [id]] as const),
      [batchedStatement(FIND_WALLET_SQL), [ids.map((id) => [id])]] as const,
    ];
    for (const [text, values] of statements) {
      const nodes = await planOf(text, values);
      expect(nodes.filter((n) => n['Node Type'] === 'Seq Scan')).toEqual([]);
      expect(nodes.map((n) => n['Index Name'])).toEqual(
        expect.arrayContaining(['wallets_pkey', 'wallets_public_key', 'wallets_delegate_username']),
      );
    }
  });

  it('plans once, and reads together, only the searches whose best plan is the same for every value', () => {
    const voters = (values: string[], field = 'balance') =>
      page({
        conditions: [{ kind: 'in', field: 'attributes.vote', values }],
        orderBy: [{ field, direction: 'desc' }],
      });
    expect(compileWalletSearch('wallets', voters([KEY])).genericPlan).toBe(true);
    expect(compileWalletSearch('wallets', voters([KEY, KEY])).genericPlan).toBe(true);
    // Two delegates' voters, or ordered by another field: the values choose the plan.
    expect(compileWalletSearch('wallets', voters([KEY, `03${KEY.slice(2)}`])).genericPlan).toBe(
      false,
    );
    expect(compileWalletSearch('wallets', voters([KEY], 'nonce')).genericPlan).toBe(false);
    // A range on the field a route index leads with, ordered by it: read from the bound.
    const range = (field: string, orderBy = field) =>
      page({
        conditions: [{ kind: 'range', field, from: 5n, to: 9n }],
        orderBy: [{ field: orderBy, direction: 'desc' }],
      });
    expect(compileWalletSearch('wallets', range('balance')).genericPlan).toBe(true);
    expect(compileWalletSearch('delegates', range('votes')).genericPlan).toBe(true);
    expect(compileWalletSearch('wallets', range('balance', 'nonce')).genericPlan).toBe(false);
    expect(compileWalletSearch('wallets', range('nonce')).genericPlan).toBe(false);
  });

  for (const [route, scope, search, index] of ROUTES) {
    it(`${route}: page and total from indexes (${index}), no scan of the table`, async () => {
      const { text, values } = compileWalletSearch(scope, search);
      const nodes = await planOf(text, values);
      expect(
        nodes.filter((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] === 'wallets'),
      ).toEqual([]);
      expect(nodes.map((n) => n['Index Name'])).toContain(index);
      const compiled = compileWalletSearch(scope, search);
      if (!compiled.genericPlan) return;
      // Planned once per connection: the plan kept must read the same index, in its order.
      const generic = await genericPlanOf(compiled.text, compiled.values);
      expect(
        generic.filter((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] === 'wallets'),
      ).toEqual([]);
      expect(generic.map((n) => n['Index Name'])).toContain(index);
      expect(generic.filter((n) => n['Node Type'] === 'Sort')).toEqual([]);
      // Read together with others of its text, as under load: the same index, in its order.
      const batched = await genericPlanOf(batchedStatement(compiled.text), [
        [compiled.values, compiled.values].map((row) => row.map(String)),
      ]);
      expect(
        batched.filter((n) => n['Node Type'] === 'Seq Scan' && n['Relation Name'] === 'wallets'),
      ).toEqual([]);
      expect(batched.map((n) => n['Index Name'])).toContain(index);
      expect(batched.filter((n) => n['Node Type'] === 'Sort')).toEqual([]);
    });
  }
});
